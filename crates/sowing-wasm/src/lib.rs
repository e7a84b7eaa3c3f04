//! The rules, the engine's search and the endgame tables for the page, compiled to
//! WebAssembly (`wasm32-unknown-unknown`) by `scripts/wasm-build.sh`; the page's engine
//! worker loads it through `static/engine/sowing.js`.
//!
//! The interface is plain C-ABI exports, no generated glue: the page allocates a buffer in
//! the module's memory ([`sow_alloc`]), writes a JSON request into it (and, for tables, the
//! bytes of a layer file into another), calls [`sow_call`], and reads the JSON reply from
//! [`sow_reply`]. [`api`] answers the requests and is the same code natively, so the tests
//! compare it with the native build request for request.

pub mod api;

use std::cell::RefCell;

thread_local! {
    /// The session (engine and tables) of this module instance, and the last reply.
    static SESSION: RefCell<(api::Session, Vec<u8>)> = RefCell::new((api::Session::new(), Vec::new()));
}

/// A buffer of `len` bytes for the page to write a request into; give it back with
/// [`sow_free`].
#[no_mangle]
pub extern "C" fn sow_alloc(len: usize) -> *mut u8 {
    let mut buffer = Vec::<u8>::with_capacity(len.max(1));
    let ptr = buffer.as_mut_ptr();
    std::mem::forget(buffer);
    ptr
}

/// Gives back a buffer from [`sow_alloc`].
///
/// # Safety
/// `ptr` and `len` must be those of one [`sow_alloc`] call, given back once.
#[no_mangle]
pub unsafe extern "C" fn sow_free(ptr: *mut u8, len: usize) {
    drop(Vec::from_raw_parts(ptr, 0, len.max(1)));
}

/// Answers the JSON request in `request[..request_len]`, with `data[..data_len]` as its
/// bytes (a layer file for `tables`; `data_len` 0 for none), and returns the length of the
/// reply, which [`sow_reply`] points to until the next call.
///
/// # Safety
/// Both ranges must be readable memory of this module (from [`sow_alloc`]).
#[no_mangle]
pub unsafe extern "C" fn sow_call(
    request: *const u8,
    request_len: usize,
    data: *const u8,
    data_len: usize,
) -> usize {
    let request = std::slice::from_raw_parts(request, request_len);
    let data = if data_len == 0 {
        &[][..]
    } else {
        std::slice::from_raw_parts(data, data_len)
    };
    SESSION.with(|session| {
        let (session, reply) = &mut *session.borrow_mut();
        *reply = session.answer(request, data).into_bytes();
        reply.len()
    })
}

/// The reply of the last [`sow_call`].
#[no_mangle]
pub extern "C" fn sow_reply() -> *const u8 {
    SESSION.with(|session| session.borrow().1.as_ptr())
}
