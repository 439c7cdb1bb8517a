//! How the CCS API answers: JSON that any origin may read (the spec asks
//! for `Access-Control-Allow-Origin: *`; a browser then sends no
//! credentials, so nothing private leaks), and every failure as the
//! spec's `{"code": ..., "message": ...}`.

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use super::objects::Failure;
use crate::serve::error::AppError;

/// A failure, with its status.
#[derive(Debug)]
pub(crate) struct CcsError {
    pub(crate) status: StatusCode,
    pub(crate) message: String,
}

pub(crate) type CcsResult = Result<Response, CcsError>;

impl CcsError {
    pub(crate) fn new(status: StatusCode, message: impl Into<String>) -> CcsError {
        CcsError {
            status,
            message: message.into(),
        }
    }

    pub(crate) fn not_found(what: &str) -> CcsError {
        CcsError::new(StatusCode::NOT_FOUND, format!("no such {what}"))
    }

    pub(crate) fn bad_request(message: impl Into<String>) -> CcsError {
        CcsError::new(StatusCode::BAD_REQUEST, message)
    }

    /// No login, or credentials that are wrong.
    pub(crate) fn unauthorized(message: &str) -> CcsError {
        CcsError::new(StatusCode::UNAUTHORIZED, message)
    }
}

impl From<crate::store::DbError> for CcsError {
    fn from(e: crate::store::DbError) -> CcsError {
        AppError::from(e).into()
    }
}

impl From<AppError> for CcsError {
    fn from(e: AppError) -> CcsError {
        match e {
            AppError::Login => CcsError::unauthorized("log in first"),
            AppError::Forbidden | AppError::Csrf => {
                CcsError::new(StatusCode::FORBIDDEN, "not allowed")
            }
            AppError::NotFound => CcsError::not_found("object"),
            AppError::BadRequest(m) => CcsError::bad_request(m),
            AppError::TooLarge(m) => CcsError::new(StatusCode::PAYLOAD_TOO_LARGE, m),
            AppError::TooMany(m) => CcsError::new(StatusCode::TOO_MANY_REQUESTS, m),
            AppError::NotReady => CcsError::new(StatusCode::SERVICE_UNAVAILABLE, "not ready yet"),
            AppError::Internal(m) => {
                eprintln!("judge serve: {m}");
                CcsError::new(StatusCode::INTERNAL_SERVER_ERROR, "the server failed")
            }
        }
    }
}

impl IntoResponse for CcsError {
    fn into_response(self) -> Response {
        let body = Failure {
            code: self.status.as_u16(),
            message: &self.message,
        };
        let mut response = (self.status, Json(body)).into_response();
        if self.status == StatusCode::UNAUTHORIZED {
            response.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Basic realm=\"judge\", charset=\"UTF-8\""),
            );
        }
        open_to_any_origin(response)
    }
}

/// A JSON answer.
pub(crate) fn json(body: &impl Serialize) -> Response {
    open_to_any_origin(Json(body).into_response())
}

pub(crate) fn open_to_any_origin(mut response: Response) -> Response {
    response.headers_mut().insert(
        header::ACCESS_CONTROL_ALLOW_ORIGIN,
        HeaderValue::from_static("*"),
    );
    response
}
