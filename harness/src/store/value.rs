//! The values that cross the store's interface in either direction, the
//! same for both engines: a parameter is a `Value`, a row is a list of
//! them. Each engine converts at its edge (`engine.rs`), so the SQL and
//! the code around it are written once.

use super::engine::DbError;

/// One SQL value, as SQLite knows them (PostgreSQL's columns are chosen
/// to map onto these: BIGINT, DOUBLE PRECISION, TEXT, BYTEA).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
}

impl Value {
    fn kind(&self) -> &'static str {
        match self {
            Value::Null => "NULL",
            Value::Int(_) => "an integer",
            Value::Real(_) => "a real",
            Value::Text(_) => "text",
            Value::Blob(_) => "a blob",
        }
    }
}

/// What may be a parameter: numbers, text, bytes, booleans (as 0 and 1,
/// the store's spelling in both engines) and `Option`s of them.
pub(crate) trait ToValue {
    fn to_value(&self) -> Value;
}

impl ToValue for Value {
    fn to_value(&self) -> Value {
        self.clone()
    }
}

impl ToValue for i64 {
    fn to_value(&self) -> Value {
        Value::Int(*self)
    }
}

impl ToValue for i32 {
    fn to_value(&self) -> Value {
        Value::Int(i64::from(*self))
    }
}

impl ToValue for u64 {
    fn to_value(&self) -> Value {
        Value::Int(i64::try_from(*self).unwrap_or(i64::MAX))
    }
}

impl ToValue for usize {
    fn to_value(&self) -> Value {
        Value::Int(i64::try_from(*self).unwrap_or(i64::MAX))
    }
}

impl ToValue for bool {
    fn to_value(&self) -> Value {
        Value::Int(i64::from(*self))
    }
}

impl ToValue for f64 {
    fn to_value(&self) -> Value {
        Value::Real(*self)
    }
}

impl ToValue for str {
    fn to_value(&self) -> Value {
        Value::Text(self.to_string())
    }
}

impl ToValue for String {
    fn to_value(&self) -> Value {
        Value::Text(self.clone())
    }
}

impl ToValue for [u8] {
    fn to_value(&self) -> Value {
        Value::Blob(self.to_vec())
    }
}

impl ToValue for Vec<u8> {
    fn to_value(&self) -> Value {
        Value::Blob(self.clone())
    }
}

impl<T: ToValue + ?Sized> ToValue for &T {
    fn to_value(&self) -> Value {
        (**self).to_value()
    }
}

impl<T: ToValue> ToValue for Option<T> {
    fn to_value(&self) -> Value {
        self.as_ref().map_or(Value::Null, ToValue::to_value)
    }
}

/// The parameters of a statement: `params![a, b]` as `&[Value]`, each
/// taken by reference.
macro_rules! params {
    ($($value:expr),* $(,)?) => {
        &[$($crate::store::value::ToValue::to_value(&$value)),*] as &[$crate::store::value::Value]
    };
}
pub(crate) use params;

/// What a column may be read as.
pub(crate) trait FromValue: Sized {
    const EXPECTED: &'static str;
    fn from_value(value: &Value) -> Option<Self>;
}

impl FromValue for i64 {
    const EXPECTED: &'static str = "an integer";
    fn from_value(value: &Value) -> Option<i64> {
        match value {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }
}

impl FromValue for f64 {
    const EXPECTED: &'static str = "a number";
    fn from_value(value: &Value) -> Option<f64> {
        match value {
            Value::Real(r) => Some(*r),
            Value::Int(i) => Some(*i as f64),
            _ => None,
        }
    }
}

impl FromValue for bool {
    const EXPECTED: &'static str = "0 or 1";
    fn from_value(value: &Value) -> Option<bool> {
        match value {
            Value::Int(i) => Some(*i != 0),
            _ => None,
        }
    }
}

impl FromValue for String {
    const EXPECTED: &'static str = "text";
    fn from_value(value: &Value) -> Option<String> {
        match value {
            Value::Text(text) => Some(text.clone()),
            _ => None,
        }
    }
}

impl FromValue for Vec<u8> {
    const EXPECTED: &'static str = "bytes";
    fn from_value(value: &Value) -> Option<Vec<u8>> {
        match value {
            Value::Blob(bytes) => Some(bytes.clone()),
            // SQLite hands back what was stored: text stays text.
            Value::Text(text) => Some(text.clone().into_bytes()),
            _ => None,
        }
    }
}

impl FromValue for Value {
    const EXPECTED: &'static str = "a value";
    fn from_value(value: &Value) -> Option<Value> {
        Some(value.clone())
    }
}

impl<T: FromValue> FromValue for Option<T> {
    const EXPECTED: &'static str = T::EXPECTED;
    fn from_value(value: &Value) -> Option<Option<T>> {
        match value {
            Value::Null => Some(None),
            other => T::from_value(other).map(Some),
        }
    }
}

/// One row of a result, its columns in the order selected.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Row(pub(crate) Vec<Value>);

impl Row {
    /// Column `index` as a `T`; an error names the column and what it held.
    pub(crate) fn get<T: FromValue>(&self, index: usize) -> Result<T, DbError> {
        let value = self.0.get(index).unwrap_or(&Value::Null);
        T::from_value(value).ok_or_else(|| DbError::Column {
            index,
            expected: T::EXPECTED,
            found: value.kind(),
        })
    }

    /// The columns, for copying a row elsewhere.
    pub(crate) fn into_values(self) -> Vec<Value> {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_and_columns_convert_both_ways() {
        let name = String::from("alice");
        let missing: Option<&str> = None;
        let values = params![7i64, true, 1.5, name, missing, Some(3usize), "x"];
        assert_eq!(
            values,
            [
                Value::Int(7),
                Value::Int(1),
                Value::Real(1.5),
                Value::Text("alice".into()),
                Value::Null,
                Value::Int(3),
                Value::Text("x".into())
            ]
        );
        let row = Row(values.to_vec());
        assert_eq!(row.get::<i64>(0).unwrap(), 7);
        assert!(row.get::<bool>(1).unwrap());
        assert_eq!(row.get::<Option<String>>(4).unwrap(), None);
        assert_eq!(row.get::<f64>(5).unwrap(), 3.0);
        let error = row.get::<i64>(3).unwrap_err().to_string();
        assert_eq!(error, "column 3: expected an integer, found text");
    }
}
