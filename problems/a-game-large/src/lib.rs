//! Generator logic for the package.
