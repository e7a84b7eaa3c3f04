//! The actions of a batch of games (`VecGame`, `VectorGame`): those Python passes in
//! ([`integer_actions`]) and the legal columns drawn in Rust ([`nth_column`]).

use numpy::{PyReadonlyArray1, PyUntypedArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use crate::SowingError;

/// The actions as a contiguous int64 array of `games` entries: any integer dtype and any
/// strides are taken (converted by NumPy), anything else refused with a message that names
/// what was expected.
pub(crate) fn integer_actions<'py>(
    actions: &Bound<'py, PyAny>,
    games: usize,
) -> PyResult<PyReadonlyArray1<'py, i64>> {
    let array = match actions.extract::<PyReadonlyArray1<'py, i64>>() {
        // A strided view (a column of a 2-D array) is copied, as other dtypes are.
        Ok(array) if array.is_contiguous() => array,
        Ok(_) => actions
            .py()
            .import("numpy")?
            .call_method1("ascontiguousarray", (actions,))?
            .extract::<PyReadonlyArray1<'py, i64>>()?,
        Err(_) => {
            let numpy = actions.py().import("numpy")?;
            let array = numpy.call_method1("asarray", (actions,))?;
            let dtype = array.getattr("dtype")?;
            let kind: String = dtype.getattr("kind")?.extract()?;
            let shape = array.getattr("shape")?;
            if kind != "i" && kind != "u" {
                return Err(PyTypeError::new_err(format!(
                    "actions must be integers: an array of any integer dtype and shape ({games},), not {dtype} of shape {shape}"
                )));
            }
            array
                .call_method1("astype", ("int64",))?
                .extract::<PyReadonlyArray1<'py, i64>>()
                .map_err(|_| {
                    PyTypeError::new_err(format!(
                        "actions must be one integer a game: shape ({games},), not {shape}"
                    ))
                })?
        }
    };
    if array.len() != games {
        return Err(SowingError::new_err(format!(
            "{} actions for {games} games",
            array.len()
        )));
    }
    Ok(array)
}

/// `SELECT[bits][i]`: the `i`-th set bit of six `bits`.
const SELECT: [[u8; 6]; 64] = {
    let mut table = [[0; 6]; 64];
    let mut bits = 0;
    while bits < 64 {
        let (mut column, mut i) = (0, 0);
        while column < 6 {
            if (bits >> column) & 1 == 1 {
                table[bits][i] = column as u8;
                i += 1;
            }
            column += 1;
        }
        bits += 1;
    }
    table
};

/// The `index`-th legal column of `legal` (up to 12 columns): a table look-up in the
/// six that hold it, with no loop whose length would be mispredicted.
pub(crate) fn nth_column(legal: u16, index: u32) -> u32 {
    let low = usize::from(legal & 63);
    let in_low = low.count_ones();
    let (bits, i, base) = if index < in_low {
        (low, index, 0)
    } else {
        (usize::from((legal >> 6) & 63), index - in_low, 6)
    };
    base + u32::from(SELECT[bits][i as usize % 6])
}
