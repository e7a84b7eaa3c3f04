// The page's engine worker: the WebAssembly engine (sowing.js) off the page's thread, so the
// page never freezes while the computer thinks. A message {id, request, data} is answered
// {id, reply} or {id, error}, one at a time, in order.
import { load } from './sowing.js';

const ready = load(new URL('./sowing.wasm', import.meta.url));

addEventListener('message', async ({ data: { id, request, data } }) => {
  try {
    const engine = await ready;
    postMessage({ id, reply: engine.call(request, data) });
  } catch (error) {
    postMessage({ id, error: String(error && error.message || error) });
  }
});
