//! Generator logic for the package (work in progress).
