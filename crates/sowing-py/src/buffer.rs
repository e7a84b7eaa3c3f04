//! [`Buffer`]: an output array of a batch of games (`VecGame`, `VectorGame`). The batch
//! owns it, overwrites it in place at every step and hands Python the same NumPy object
//! every time, so that a step neither allocates nor copies; one type, so that every getter
//! hands its array out the same way.

use numpy::ndarray::{Dimension, IntoDimension, Ix1, Ix2};
use numpy::{Element, PyArray, PyArrayMethods, PyReadonlyArray};
use pyo3::prelude::*;

/// A NumPy array owned by a batch and shared with Python, never copied on the way out.
pub(crate) struct Buffer<T, D>(Py<PyArray<T, D>>);

/// A [`Buffer`] of one value a game.
pub(crate) type Buffer1<T> = Buffer<T, Ix1>;

/// A [`Buffer`] of one row a game.
pub(crate) type Buffer2<T> = Buffer<T, Ix2>;

impl<T: Element, D: Dimension> Buffer<T, D> {
    /// A contiguous (C-order) array of zeros of `shape`.
    pub(crate) fn zeros(py: Python<'_>, shape: impl IntoDimension<Dim = D>) -> Self {
        Buffer(PyArray::zeros(py, shape, false).unbind())
    }

    /// A buffer holding a copy of `array` (unpickling: the batch must own its arrays).
    pub(crate) fn copy_of(py: Python<'_>, array: &PyReadonlyArray<'_, T, D>) -> Self
    where
        T: Clone,
    {
        Buffer(PyArray::from_owned_array(py, array.to_owned_array()).unbind())
    }

    /// The array itself, not a copy: what the getters return. The caller sees the next
    /// step's values in it.
    pub(crate) fn array<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray<T, D>> {
        self.0.bind(py).clone()
    }

    /// A new NumPy copy of the array (`ndarray.copy()`), for pickling.
    pub(crate) fn copied<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.0.bind(py).call_method0("copy")
    }

    /// Overwrites `other`'s values with this one's (the arrays have the same shape).
    pub(crate) fn copy_to(&self, py: Python<'_>, other: &Buffer<T, D>) -> PyResult<()> {
        self.0.bind(py).copy_to(other.0.bind(py))
    }

    /// The first value, for the stepping loop, which writes the array through it without
    /// the GIL, row after row. The array is one block ([`Buffer::zeros`] makes it so, and
    /// [`Buffer::copy_of`] of the C-order copies `__reduce__` makes) and never resized:
    /// NumPy refuses to resize an array that others refer to, and the buffer always does.
    pub(crate) fn data(&self, py: Python<'_>) -> *mut T {
        self.0.bind(py).data()
    }
}
