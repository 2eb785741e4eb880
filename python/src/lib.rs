//! `pasang._pasang`, the Rust half of the Python module `pasang`: the
//! board and its moves ([`board`]), the board and moves as numbers for
//! learning ([`learn`]), game records ([`records`]) and the
//! in-process search ([`search`]), each a thin layer over the engine's
//! library. The pure-Python half (the engine driver, `pasang.records`'
//! `Game`, the type stubs) lives in `pasang/` beside this crate.
//!
//! Every error the library reports becomes a Python exception named for
//! what went wrong, carrying the library's own message; nothing a caller
//! passes in can panic.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

mod board;
mod learn;
mod puzzles;
mod records;
mod rl;
mod search;

create_exception!(
    pasang,
    IllegalMoveError,
    PyValueError,
    "A well-formed move that is not legal in the board's position."
);
create_exception!(
    pasang,
    InvalidMoveError,
    PyValueError,
    "Text that is not a move in the project's notation."
);
create_exception!(
    pasang,
    InvalidPositionError,
    PyValueError,
    "A position string that does not parse, or describes no position of a game."
);
create_exception!(
    pasang,
    InvalidRulesError,
    PyValueError,
    "A rule option's value that is not one of the option's values."
);
create_exception!(
    pasang,
    RecordError,
    PyValueError,
    "Record text that breaks the format, or a record that does not replay."
);

#[pymodule]
fn _pasang(module: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = module.py();
    // The engine's version and the commit it was built from, as `pasang
    // --version` and `id name` say it: `0.2.0 (1a2b3c4)`.
    module.add("__version__", pasang::VERSION)?;
    module.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    module.add("InvalidMoveError", py.get_type::<InvalidMoveError>())?;
    module.add(
        "InvalidPositionError",
        py.get_type::<InvalidPositionError>(),
    )?;
    module.add("InvalidRulesError", py.get_type::<InvalidRulesError>())?;
    module.add("RecordError", py.get_type::<RecordError>())?;
    learn::register(module)?;
    board::register(module)?;
    records::register(module)?;
    puzzles::register(module)?;
    search::register(module)?;
    rl::register(module)?;
    Ok(())
}
