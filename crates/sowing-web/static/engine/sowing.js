// The rules, the engine and the endgame tables in WebAssembly (crates/sowing-wasm, built by
// scripts/wasm-build.sh into sowing.wasm beside this file). The module's interface is plain
// exports: a JSON request goes into its memory, a JSON reply comes back (the requests:
// crates/sowing-wasm/src/api.rs). Runs in a worker, in the page or in Node.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The engine of one module instance; `call` answers one request at a time. */
export class Engine {
  constructor(instance) {
    this.exports = instance.exports;
  }

  /** Copies `bytes` into a new buffer of the module; returns its address. */
  put(bytes) {
    const address = this.exports.sow_alloc(bytes.length);
    new Uint8Array(this.exports.memory.buffer, address, bytes.length).set(bytes);
    return address;
  }

  /**
   * The reply to `request` (an object with an `op`), with `data` (bytes: layer files for
   * `tables`) if given. Throws an Error with the module's message when it refuses.
   */
  call(request, data = new Uint8Array(0)) {
    const text = encoder.encode(JSON.stringify(request));
    const at = this.put(text);
    const dataAt = data.length ? this.put(data) : 0;
    let length;
    try {
      length = this.exports.sow_call(at, text.length, dataAt, data.length);
    } finally {
      this.exports.sow_free(at, text.length);
      if (data.length) this.exports.sow_free(dataAt, data.length);
    }
    const reply = JSON.parse(
      decoder.decode(new Uint8Array(this.exports.memory.buffer, this.exports.sow_reply(), length)),
    );
    if (reply && typeof reply.error === "string") throw new Error(reply.error);
    return reply;
  }
}

/** What the module imports: a clock for the search's time limits. */
const imports = { sowing: { now_ms: () => performance.now() } };

/** Loads the module from `source`: a URL (fetched, compiled as it streams) or its bytes. */
export async function load(source) {
  if (source instanceof URL || typeof source === "string") {
    const { instance } = await WebAssembly.instantiateStreaming(fetch(source), imports);
    return new Engine(instance);
  }
  const { instance } = await WebAssembly.instantiate(source, imports);
  return new Engine(instance);
}
