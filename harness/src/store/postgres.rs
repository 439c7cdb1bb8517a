//! The PostgreSQL engine: the `postgres` crate's blocking client (no
//! protocol of our own), its statements prepared once per connection, the
//! store's `Value`s converted to and from the column types the schema
//! uses (BIGINT, DOUBLE PRECISION, TEXT, BYTEA).
//!
//! The blocking client drives a small runtime of its own; inside `judge
//! serve`'s runtime every call goes through `block_in_place`, so a page
//! handler may use the store as it does on SQLite.

use std::collections::HashMap;
use std::time::Duration;

use postgres::fallible_iterator::FallibleIterator;
use postgres::types::{ToSql, Type};
use postgres::{GenericClient, NoTls, Statement};

use super::engine::DbError;
use super::value::{Row, Value};

/// How long connecting may take before the store is called unreachable.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(15);

/// Runs `f`, which blocks on the client's own runtime: inside a tokio
/// worker thread through `block_in_place`, which hands the thread's other
/// tasks to other workers while it blocks.
pub(crate) fn blocking<T>(f: impl FnOnce() -> T) -> T {
    use tokio::runtime::{Handle, RuntimeFlavor};
    match Handle::try_current() {
        Ok(handle) if handle.runtime_flavor() == RuntimeFlavor::MultiThread => {
            tokio::task::block_in_place(f)
        }
        _ => f(),
    }
}

/// A PostgreSQL error as one line: the server's message and detail, or
/// the client's error with its cause.
pub(crate) fn describe(error: &postgres::Error) -> String {
    if let Some(db) = error.as_db_error() {
        let mut text = format!("{}: {}", db.severity().to_lowercase(), db.message());
        if let Some(detail) = db.detail() {
            text.push_str(&format!(" ({detail})"));
        }
        return text;
    }
    let mut text = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        let cause = cause.to_string();
        if !text.contains(&cause) {
            text.push_str(&format!(": {cause}"));
        }
        source = cause_of(source);
    }
    text
}

fn cause_of<'a>(
    error: Option<&'a (dyn std::error::Error + 'static)>,
) -> Option<&'a (dyn std::error::Error + 'static)> {
    error.and_then(std::error::Error::source)
}

/// A store URL fit to print: its password, wherever given, as `***`.
pub(crate) fn redact(url: &str) -> String {
    let mut shown = url.to_string();
    if let Some(start) = shown.find("://").map(|i| i + 3) {
        let end = shown[start..]
            .find(['/', '?'])
            .map_or(shown.len(), |i| start + i);
        if let Some(at) = shown[start..end].rfind('@').map(|i| start + i) {
            if let Some(colon) = shown[start..at].find(':').map(|i| start + i) {
                shown.replace_range(colon + 1..at, "***");
            }
        }
    }
    if let Some(query) = shown.find('?') {
        let (head, tail) = shown.split_at(query + 1);
        let tail: Vec<String> = tail
            .split('&')
            .map(|pair| match pair.split_once('=') {
                Some((key, _)) if key.eq_ignore_ascii_case("password") => format!("{key}=***"),
                _ => pair.to_string(),
            })
            .collect();
        shown = format!("{head}{}", tail.join("&"));
    }
    shown
}

/// SQL written for both engines, for PostgreSQL: `?N` becomes `$N`
/// (outside quoted text).
pub(crate) fn placeholders(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut quote: Option<char> = None;
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (None, '\'' | '"') => quote = Some(c),
            (None, '?') if chars.peek().is_some_and(char::is_ascii_digit) => {
                out.push('$');
                continue;
            }
            _ => {}
        }
        out.push(c);
    }
    out
}

/// A connection with its prepared statements.
pub(crate) struct Pg {
    /// `None` only while being dropped.
    client: Option<postgres::Client>,
    statements: HashMap<String, Statement>,
}

impl Pg {
    pub(crate) fn connect(url: &str) -> Result<Pg, DbError> {
        let mut config: postgres::Config = url.parse()?;
        if config.get_password().is_none() {
            // As libpq does: the password may stay out of the URL (and so
            // out of the process list and the logs).
            if let Ok(password) = std::env::var("PGPASSWORD") {
                config.password(password);
            }
        }
        config.application_name("judge");
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(CONNECT_TIMEOUT);
        }
        config.keepalives(true);
        let client = blocking(|| config.connect(NoTls))?;
        Ok(Pg {
            client: Some(client),
            statements: HashMap::new(),
        })
    }

    fn client(&mut self) -> &mut postgres::Client {
        self.client
            .as_mut()
            .expect("the client lives until dropped")
    }

    pub(crate) fn transaction(&mut self) -> Result<PgTx<'_>, DbError> {
        let client = self
            .client
            .as_mut()
            .expect("the client lives until dropped");
        let tx = blocking(|| client.transaction())?;
        Ok(PgTx {
            tx: Some(tx),
            statements: &mut self.statements,
        })
    }

    pub(crate) fn execute(&mut self, sql: &str, params: &[Value]) -> Result<usize, DbError> {
        let Pg { client, statements } = self;
        let client = client.as_mut().expect("the client lives until dropped");
        blocking(|| execute(client, statements, sql, params))
    }

    pub(crate) fn query(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Row>, DbError> {
        let Pg { client, statements } = self;
        let client = client.as_mut().expect("the client lives until dropped");
        blocking(|| query(client, statements, sql, params))
    }

    pub(crate) fn batch(&mut self, sql: &str) -> Result<(), DbError> {
        let client = self.client();
        Ok(blocking(|| client.batch_execute(sql))?)
    }

    /// Notifications that arrived on this connection (after `LISTEN`),
    /// waiting up to `wait` for the first: (channel, payload).
    pub(crate) fn notifications(
        &mut self,
        wait: Duration,
    ) -> Result<Vec<(String, String)>, DbError> {
        let client = self.client();
        blocking(|| {
            let mut out = Vec::new();
            let mut notifications = client.notifications();
            let first = notifications.timeout_iter(wait).next()?;
            out.extend(first.map(|n| (n.channel().to_string(), n.payload().to_string())));
            let mut pending = notifications.iter();
            while let Some(more) = pending.next()? {
                out.push((more.channel().to_string(), more.payload().to_string()));
            }
            Ok(out)
        })
    }

    pub(crate) fn is_closed(&self) -> bool {
        self.client.as_ref().is_none_or(postgres::Client::is_closed)
    }
}

impl Drop for Pg {
    fn drop(&mut self) {
        // Closing says goodbye to the server on the client's runtime.
        let client = self.client.take();
        blocking(move || drop(client));
    }
}

/// A transaction on a `Pg` connection.
pub(crate) struct PgTx<'a> {
    /// `None` once committed or while being dropped.
    tx: Option<postgres::Transaction<'a>>,
    statements: &'a mut HashMap<String, Statement>,
}

impl<'a> PgTx<'a> {
    fn tx(&mut self) -> &mut postgres::Transaction<'a> {
        self.tx
            .as_mut()
            .expect("the transaction is open until committed")
    }

    pub(crate) fn commit(mut self) -> Result<(), DbError> {
        let tx = self.tx.take().expect("a transaction is committed once");
        Ok(blocking(|| tx.commit())?)
    }

    pub(crate) fn execute(&mut self, sql: &str, params: &[Value]) -> Result<usize, DbError> {
        let PgTx { tx, statements } = self;
        let tx = tx
            .as_mut()
            .expect("the transaction is open until committed");
        blocking(|| execute(tx, statements, sql, params))
    }

    pub(crate) fn query(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Row>, DbError> {
        let PgTx { tx, statements } = self;
        let tx = tx
            .as_mut()
            .expect("the transaction is open until committed");
        blocking(|| query(tx, statements, sql, params))
    }

    pub(crate) fn batch(&mut self, sql: &str) -> Result<(), DbError> {
        let tx = self.tx();
        Ok(blocking(|| tx.batch_execute(sql))?)
    }
}

impl Drop for PgTx<'_> {
    fn drop(&mut self) {
        // An uncommitted transaction rolls back, on the client's runtime.
        let tx = self.tx.take();
        blocking(move || drop(tx));
    }
}

fn prepared(
    client: &mut impl GenericClient,
    statements: &mut HashMap<String, Statement>,
    sql: &str,
) -> Result<Statement, DbError> {
    if let Some(statement) = statements.get(sql) {
        return Ok(statement.clone());
    }
    let statement = client.prepare(&placeholders(sql))?;
    statements.insert(sql.to_string(), statement.clone());
    Ok(statement)
}

fn execute(
    client: &mut impl GenericClient,
    statements: &mut HashMap<String, Statement>,
    sql: &str,
    params: &[Value],
) -> Result<usize, DbError> {
    let statement = prepared(client, statements, sql)?;
    let values = arguments(&statement, params)?;
    let refs: Vec<&(dyn ToSql + Sync)> = values.iter().map(|v| v.as_ref()).collect();
    let changed = client.execute(&statement, &refs)?;
    Ok(usize::try_from(changed).unwrap_or(usize::MAX))
}

fn query(
    client: &mut impl GenericClient,
    statements: &mut HashMap<String, Statement>,
    sql: &str,
    params: &[Value],
) -> Result<Vec<Row>, DbError> {
    let statement = prepared(client, statements, sql)?;
    let values = arguments(&statement, params)?;
    let refs: Vec<&(dyn ToSql + Sync)> = values.iter().map(|v| v.as_ref()).collect();
    client.query(&statement, &refs)?.iter().map(row).collect()
}

type Argument = Box<dyn ToSql + Sync>;

/// Each parameter as the Rust type the statement's parameter takes.
fn arguments(statement: &Statement, params: &[Value]) -> Result<Vec<Argument>, DbError> {
    statement
        .params()
        .iter()
        .enumerate()
        .map(|(i, ty)| argument(i + 1, params.get(i).unwrap_or(&Value::Null), ty))
        .collect()
}

fn argument(index: usize, value: &Value, ty: &Type) -> Result<Argument, DbError> {
    let text = |ty: &Type| {
        [
            Type::TEXT,
            Type::VARCHAR,
            Type::BPCHAR,
            Type::NAME,
            Type::UNKNOWN,
        ]
        .contains(ty)
    };
    let refused = || DbError::Parameter {
        index,
        found: format!("{value:?}"),
        column: ty.name().to_string(),
    };
    Ok(match value {
        Value::Null => match *ty {
            Type::INT8 => Box::new(None::<i64>),
            Type::INT4 => Box::new(None::<i32>),
            Type::INT2 => Box::new(None::<i16>),
            Type::FLOAT8 => Box::new(None::<f64>),
            Type::FLOAT4 => Box::new(None::<f32>),
            Type::BOOL => Box::new(None::<bool>),
            Type::BYTEA => Box::new(None::<Vec<u8>>),
            _ => Box::new(None::<String>),
        },
        Value::Int(i) => match *ty {
            Type::INT8 => Box::new(*i),
            Type::INT4 => Box::new(i32::try_from(*i).map_err(|_| refused())?),
            Type::INT2 => Box::new(i16::try_from(*i).map_err(|_| refused())?),
            Type::FLOAT8 => Box::new(*i as f64),
            Type::BOOL => Box::new(*i != 0),
            ref t if text(t) => Box::new(i.to_string()),
            _ => return Err(refused()),
        },
        Value::Real(r) => match *ty {
            Type::FLOAT8 => Box::new(*r),
            Type::FLOAT4 => Box::new(*r as f32),
            _ => return Err(refused()),
        },
        Value::Text(s) => match *ty {
            ref t if text(t) => Box::new(s.clone()),
            _ => return Err(refused()),
        },
        Value::Blob(bytes) => match *ty {
            Type::BYTEA => Box::new(bytes.clone()),
            _ => return Err(refused()),
        },
    })
}

fn row(row: &postgres::Row) -> Result<Row, DbError> {
    let mut values = Vec::with_capacity(row.len());
    for (i, column) in row.columns().iter().enumerate() {
        let value = match *column.type_() {
            Type::INT8 => row.try_get::<_, Option<i64>>(i)?.map(Value::Int),
            Type::INT4 => row
                .try_get::<_, Option<i32>>(i)?
                .map(|v| Value::Int(v.into())),
            Type::INT2 => row
                .try_get::<_, Option<i16>>(i)?
                .map(|v| Value::Int(v.into())),
            Type::BOOL => row
                .try_get::<_, Option<bool>>(i)?
                .map(|v| Value::Int(v.into())),
            Type::FLOAT8 => row.try_get::<_, Option<f64>>(i)?.map(Value::Real),
            Type::FLOAT4 => row
                .try_get::<_, Option<f32>>(i)?
                .map(|v| Value::Real(v.into())),
            Type::BYTEA => row.try_get::<_, Option<Vec<u8>>>(i)?.map(Value::Blob),
            _ => row.try_get::<_, Option<String>>(i)?.map(Value::Text),
        };
        values.push(value.unwrap_or(Value::Null));
    }
    Ok(Row(values))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_become_numbered_dollars_outside_quotes() {
        assert_eq!(
            placeholders("SELECT a FROM t WHERE b = ?1 AND c = '?2' AND d IN (?2, ?10)"),
            "SELECT a FROM t WHERE b = $1 AND c = '?2' AND d IN ($2, $10)"
        );
    }

    #[test]
    fn a_url_is_shown_without_its_password() {
        assert_eq!(
            redact("postgres://judge:s3cret@db.example:5432/grades"),
            "postgres://judge:***@db.example:5432/grades"
        );
        assert_eq!(
            redact("postgresql://db/grades?user=j&password=x&sslmode=disable"),
            "postgresql://db/grades?user=j&password=***&sslmode=disable"
        );
        assert_eq!(
            redact("postgres://judge@127.0.0.1/g"),
            "postgres://judge@127.0.0.1/g"
        );
    }
}
