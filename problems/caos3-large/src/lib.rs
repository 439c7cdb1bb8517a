//! Generator logic for the `caos3-large` package.
