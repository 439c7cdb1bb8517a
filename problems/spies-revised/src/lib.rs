//! Shared logic for the package programs.
