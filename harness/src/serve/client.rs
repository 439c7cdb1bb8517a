//! `judge submit ID FILE --server URL`: a learner's terminal as a client
//! of `judge serve` (a blocking HTTP client: no async outside the server).

use crate::cli::SubmitArgs;
use crate::errors::Result;

pub(crate) fn submit(_args: &SubmitArgs) -> Result<u8> {
    Err(crate::Error::Usage("judge submit: not built yet".into()))
}
