//! Generator logic for the `caos3` package.
