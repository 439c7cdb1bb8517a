//! One store, two engines: SQLite (a file, embedded; the default) and
//! PostgreSQL (a server several machines share). Everything above this
//! file writes its SQL once, in the form both engines read: parameters
//! as `?1`, `?2` (rewritten to `$1` for PostgreSQL), ids returned by
//! `INSERT ... RETURNING id`, upserts as `ON CONFLICT`, no boolean
//! arithmetic. Where the dialects truly differ (the clock, claiming a
//! job) `Dialect` holds the two spellings side by side.
//!
//! `Sql` is what a statement runs on: the connection itself or one of its
//! transactions.

use super::postgres::{Pg, PgTx};
use super::value::{Row, Value};

/// What the store's engines can fail with.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error(transparent)]
    Sqlite(#[from] rusqlite::Error),
    #[error("{}", super::postgres::describe(.0))]
    Postgres(#[from] postgres::Error),
    #[error("column {index}: expected {expected}, found {found}")]
    Column {
        index: usize,
        expected: &'static str,
        found: &'static str,
    },
    #[error("parameter {index}: {found} cannot be a `{column}`")]
    Parameter {
        index: usize,
        found: String,
        column: String,
    },
    #[error("the query returned no row")]
    NoRow,
}

/// Which SQL the engine speaks, for the few statements that differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    Sqlite,
    Postgres,
}

impl Dialect {
    /// The database's clock in milliseconds since 1970, as an SQL
    /// expression: leases are measured on the one clock every worker
    /// shares, never on the workers' own.
    pub(crate) fn now_ms(self) -> &'static str {
        match self {
            Dialect::Sqlite => "CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)",
            Dialect::Postgres => "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)",
        }
    }

    /// What ends a `SELECT` whose rows the transaction takes for itself:
    /// PostgreSQL locks them and passes over rows another worker holds;
    /// SQLite has one writer at a time (an immediate transaction), so
    /// there is nothing to skip.
    pub(crate) fn lock_skipping_taken(self) -> &'static str {
        match self {
            Dialect::Sqlite => "",
            Dialect::Postgres => " FOR UPDATE SKIP LOCKED",
        }
    }
}

/// What statements run on: a connection or a transaction of one.
pub(crate) trait Sql {
    fn dialect(&self) -> Dialect;

    /// Runs one statement; returns how many rows it changed.
    fn execute(&mut self, sql: &str, params: &[Value]) -> Result<usize, DbError>;

    /// Every row one statement returns.
    fn query(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Row>, DbError>;

    /// Several statements without parameters (a migration).
    fn batch(&mut self, sql: &str) -> Result<(), DbError>;

    /// The first row, if any.
    fn query_opt(&mut self, sql: &str, params: &[Value]) -> Result<Option<Row>, DbError> {
        Ok(self.query(sql, params)?.into_iter().next())
    }

    /// The first row; an error when there is none.
    fn query_one(&mut self, sql: &str, params: &[Value]) -> Result<Row, DbError> {
        self.query_opt(sql, params)?.ok_or(DbError::NoRow)
    }

    /// Runs an `INSERT` and returns the new row's `id`.
    fn insert(&mut self, sql: &str, params: &[Value]) -> Result<i64, DbError> {
        self.query_one(&format!("{sql} RETURNING id"), params)?
            .get(0)
    }
}

/// An open store connection.
pub(crate) enum Db {
    Sqlite(rusqlite::Connection),
    Postgres(Box<Pg>),
}

/// A transaction; dropped without `commit`, it rolls back.
pub(crate) enum Tx<'a> {
    Sqlite(rusqlite::Transaction<'a>),
    Postgres(PgTx<'a>),
}

impl Db {
    /// A transaction that takes the write lock at its first write
    /// (SQLite) or runs at read committed (PostgreSQL).
    pub(crate) fn transaction(&mut self) -> Result<Tx<'_>, DbError> {
        Ok(match self {
            Db::Sqlite(conn) => Tx::Sqlite(conn.transaction()?),
            Db::Postgres(pg) => Tx::Postgres(pg.transaction()?),
        })
    }

    /// A transaction that holds SQLite's write lock from its start, for a
    /// read followed by a write that must see no other writer between.
    pub(crate) fn immediate(&mut self) -> Result<Tx<'_>, DbError> {
        Ok(match self {
            Db::Sqlite(conn) => Tx::Sqlite(
                conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?,
            ),
            Db::Postgres(pg) => Tx::Postgres(pg.transaction()?),
        })
    }
}

impl Tx<'_> {
    pub(crate) fn commit(self) -> Result<(), DbError> {
        match self {
            Tx::Sqlite(tx) => Ok(tx.commit()?),
            Tx::Postgres(tx) => tx.commit(),
        }
    }
}

impl Sql for Db {
    fn dialect(&self) -> Dialect {
        match self {
            Db::Sqlite(_) => Dialect::Sqlite,
            Db::Postgres(_) => Dialect::Postgres,
        }
    }

    fn execute(&mut self, sql: &str, params: &[Value]) -> Result<usize, DbError> {
        match self {
            Db::Sqlite(conn) => sqlite_execute(conn, sql, params),
            Db::Postgres(pg) => pg.execute(sql, params),
        }
    }

    fn query(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Row>, DbError> {
        match self {
            Db::Sqlite(conn) => sqlite_query(conn, sql, params),
            Db::Postgres(pg) => pg.query(sql, params),
        }
    }

    fn batch(&mut self, sql: &str) -> Result<(), DbError> {
        match self {
            Db::Sqlite(conn) => Ok(conn.execute_batch(sql)?),
            Db::Postgres(pg) => pg.batch(sql),
        }
    }
}

impl Sql for Tx<'_> {
    fn dialect(&self) -> Dialect {
        match self {
            Tx::Sqlite(_) => Dialect::Sqlite,
            Tx::Postgres(_) => Dialect::Postgres,
        }
    }

    fn execute(&mut self, sql: &str, params: &[Value]) -> Result<usize, DbError> {
        match self {
            Tx::Sqlite(tx) => sqlite_execute(tx, sql, params),
            Tx::Postgres(tx) => tx.execute(sql, params),
        }
    }

    fn query(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Row>, DbError> {
        match self {
            Tx::Sqlite(tx) => sqlite_query(tx, sql, params),
            Tx::Postgres(tx) => tx.query(sql, params),
        }
    }

    fn batch(&mut self, sql: &str) -> Result<(), DbError> {
        match self {
            Tx::Sqlite(tx) => Ok(tx.execute_batch(sql)?),
            Tx::Postgres(tx) => tx.batch(sql),
        }
    }
}

impl rusqlite::ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, ValueRef};
        Ok(ToSqlOutput::Borrowed(match self {
            Value::Null => ValueRef::Null,
            Value::Int(i) => ValueRef::Integer(*i),
            Value::Real(r) => ValueRef::Real(*r),
            Value::Text(text) => ValueRef::Text(text.as_bytes()),
            Value::Blob(bytes) => ValueRef::Blob(bytes),
        }))
    }
}

fn sqlite_value(value: rusqlite::types::ValueRef<'_>) -> Value {
    use rusqlite::types::ValueRef;
    match value {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(i) => Value::Int(i),
        ValueRef::Real(r) => Value::Real(r),
        ValueRef::Text(text) => Value::Text(String::from_utf8_lossy(text).into_owned()),
        ValueRef::Blob(bytes) => Value::Blob(bytes.to_vec()),
    }
}

fn sqlite_execute(
    conn: &rusqlite::Connection,
    sql: &str,
    params: &[Value],
) -> Result<usize, DbError> {
    Ok(conn
        .prepare_cached(sql)?
        .execute(rusqlite::params_from_iter(params))?)
}

fn sqlite_query(
    conn: &rusqlite::Connection,
    sql: &str,
    params: &[Value],
) -> Result<Vec<Row>, DbError> {
    let mut statement = conn.prepare_cached(sql)?;
    let width = statement.column_count();
    let mut rows = statement.query(rusqlite::params_from_iter(params))?;
    let mut out = Vec::new();
    while let Some(row) = rows.next()? {
        let values = (0..width)
            .map(|i| row.get_ref(i).map(sqlite_value))
            .collect::<rusqlite::Result<Vec<Value>>>()?;
        out.push(Row(values));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::value::params;

    #[test]
    fn statements_run_on_sqlite_through_the_one_interface() {
        let mut db = Db::Sqlite(rusqlite::Connection::open_in_memory().unwrap());
        db.batch("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, n INTEGER)")
            .unwrap();
        let id = db
            .insert(
                "INSERT INTO t (name, n) VALUES (?1, ?2)",
                params!["a", 1i64],
            )
            .unwrap();
        let mut tx = db.transaction().unwrap();
        tx.execute("UPDATE t SET n = ?2 WHERE id = ?1", params![id, 5i64])
            .unwrap();
        drop(tx); // rolled back
        let row = db
            .query_one("SELECT name, n FROM t WHERE id = ?1", params![id])
            .unwrap();
        assert_eq!(row.get::<String>(0).unwrap(), "a");
        assert_eq!(row.get::<i64>(1).unwrap(), 1);
        assert!(
            db.query_opt("SELECT n FROM t WHERE id = ?1", params![id + 1])
                .unwrap()
                .is_none()
        );
        let now: i64 = db
            .query_one(&format!("SELECT {}", Dialect::Sqlite.now_ms()), &[])
            .unwrap()
            .get(0)
            .unwrap();
        let clock = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis() as i64;
        assert!((now - clock).abs() < 60_000, "{now} against {clock}");
    }
}
