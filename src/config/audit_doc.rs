//! `audit:` in warden's own config, read strictly and checked: the JSONL file's place and rotation, and the syslog sink.

use serde::Deserialize;

use super::model::{AuditSettings, SyslogSettings};
use super::yaml::config_error;
use super::yaml::lines::{self, Step};
use crate::error::Result;

/// `audit:` as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct AuditDoc {
    path: Option<String>,
    max_bytes: Option<u64>,
    keep: Option<u32>,
    file: Option<bool>,
    syslog: Option<SyslogDoc>,
}

/// `audit.syslog:` as written: `true`, `false`, or a mapping naming the
/// socket and the facility (each optional).
enum SyslogDoc {
    Off,
    On(SyslogTable),
}

#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct SyslogTable {
    socket: Option<String>,
    facility: Option<String>,
}

impl<'de> Deserialize<'de> for SyslogDoc {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<SyslogDoc, D::Error> {
        struct Either;
        impl<'de> serde::de::Visitor<'de> for Either {
            type Value = SyslogDoc;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("true, false, or a mapping with `socket` and `facility`")
            }
            fn visit_bool<E: serde::de::Error>(
                self,
                on: bool,
            ) -> std::result::Result<SyslogDoc, E> {
                Ok(if on {
                    SyslogDoc::On(SyslogTable::default())
                } else {
                    SyslogDoc::Off
                })
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> std::result::Result<SyslogDoc, A::Error> {
                SyslogTable::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(SyslogDoc::On)
            }
        }
        d.deserialize_any(Either)
    }
}

impl SyslogTable {
    /// Checks the values: the socket must be an absolute path and the
    /// facility one a program may log as.
    fn settings(self, path: &str, text: &str) -> Result<SyslogSettings> {
        let line = |key: &str| {
            lines::key_line(
                text,
                &[Step::Key("audit"), Step::Key("syslog"), Step::Key(key)],
            )
        };
        let socket = match self.socket.as_deref().map(str::trim) {
            None => SyslogSettings::DEFAULT_SOCKET.to_string(),
            Some(s) if s.starts_with('/') => s.to_string(),
            Some(s) => {
                return Err(config_error(
                    path,
                    line("socket"),
                    format!("audit.syslog.socket is {s:?}; it must be an absolute path"),
                ))
            }
        };
        let facility = match self.facility.as_deref().map(str::trim) {
            None => SyslogSettings::DEFAULT_FACILITY,
            Some(name) => SyslogSettings::FACILITIES
                .iter()
                .find(|(known, _)| known.eq_ignore_ascii_case(name))
                .map(|&(_, code)| code)
                .ok_or_else(|| {
                    let names: Vec<&str> =
                        SyslogSettings::FACILITIES.iter().map(|(n, _)| *n).collect();
                    config_error(
                        path,
                        line("facility"),
                        format!(
                            "audit.syslog.facility is {name:?}; it must be one of {}",
                            names.join(", ")
                        ),
                    )
                })?,
        };
        Ok(SyslogSettings { socket, facility })
    }
}

impl AuditDoc {
    /// Checks the values; a relative path is made absolute against the
    /// directory of the file that names it.
    pub(crate) fn settings(self, path: &str, text: &str) -> Result<AuditSettings> {
        let line = |key: &str| lines::key_line(text, &[Step::Key("audit"), Step::Key(key)]);
        let max_bytes = self.max_bytes.unwrap_or(AuditSettings::DEFAULT_MAX_BYTES);
        if max_bytes < AuditSettings::MIN_MAX_BYTES {
            return Err(config_error(
                path,
                line("max_bytes"),
                format!(
                    "audit.max_bytes is {max_bytes}; it must be at least {}",
                    AuditSettings::MIN_MAX_BYTES
                ),
            ));
        }
        let keep = self.keep.unwrap_or(AuditSettings::DEFAULT_KEEP);
        if keep > AuditSettings::MAX_KEEP {
            return Err(config_error(
                path,
                line("keep"),
                format!(
                    "audit.keep is {keep}; at most {} rotated files are kept",
                    AuditSettings::MAX_KEEP
                ),
            ));
        }
        let file = self.file.unwrap_or(true);
        if !file {
            self.only_syslog(path, &line)?;
        }
        let log = log_path(self.path.as_deref(), path, &line)?;
        let syslog = match self.syslog {
            Some(SyslogDoc::On(table)) => Some(table.settings(path, text)?),
            Some(SyslogDoc::Off) | None => None,
        };
        Ok(AuditSettings {
            path: log,
            max_bytes,
            keep,
            file,
            syslog,
        })
    }

    /// With `file: false`, settings for the file that is not written are a
    /// mistake worth saying, as is a log that goes nowhere.
    fn only_syslog(&self, path: &str, line: &dyn Fn(&str) -> Option<u32>) -> Result<()> {
        let given = [
            ("path", self.path.is_some()),
            ("max_bytes", self.max_bytes.is_some()),
            ("keep", self.keep.is_some()),
        ];
        if let Some((key, _)) = given.iter().find(|(_, set)| *set) {
            return Err(config_error(
                path,
                line(key),
                format!("audit.{key} is set, but `file: false` turns the file off"),
            ));
        }
        if !matches!(self.syslog, Some(SyslogDoc::On(_))) {
            return Err(config_error(
                path,
                line("file"),
                "audit.file is false and audit.syslog is off: nothing would be logged \
                 (leave `audit:` out to log nothing)",
            ));
        }
        Ok(())
    }
}

/// The log file as written (`None`: the default), made absolute against
/// the directory of the config file at `path` unless it starts at `/` or `~`.
fn log_path(
    written: Option<&str>,
    path: &str,
    line: &dyn Fn(&str) -> Option<u32>,
) -> Result<Option<String>> {
    Ok(match written.map(str::trim) {
        None => None,
        Some("") => return Err(config_error(path, line("path"), "audit.path is empty")),
        Some(p) if p.starts_with('/') || p == "~" || p.starts_with("~/") => Some(p.to_string()),
        Some(p) => {
            let dir = std::path::Path::new(path)
                .parent()
                .map(|d| d.display().to_string())
                .unwrap_or_default();
            Some(format!("{}/{p}", dir.trim_end_matches('/')))
        }
    })
}

#[cfg(test)]
mod tests {
    use crate::config::model::{AuditSettings, SourceKind, SyslogSettings};
    use crate::error::Error;

    fn audit(text: &str) -> crate::error::Result<Option<AuditSettings>> {
        super::super::warden_file::parse("/etc/warden/p.yaml", text, SourceKind::Warden, None)
            .map(|doc| doc.settings.audit)
    }

    fn error(text: &str) -> (Option<usize>, String) {
        match audit(text) {
            Err(Error::Config { line, message, .. }) => (line, message),
            other => panic!("{text:?}: expected a config error, got {other:?}"),
        }
    }

    #[test]
    fn an_empty_audit_is_the_file_alone() {
        let a = audit("audit: {}\n").unwrap().unwrap();
        assert!(a.file);
        assert_eq!(a.syslog, None);
        assert_eq!(a.path, None);
        assert_eq!(a.max_bytes, AuditSettings::DEFAULT_MAX_BYTES);
        assert_eq!(
            audit("audit:\n  syslog: false\n").unwrap(),
            audit("audit: {}\n").unwrap()
        );
    }

    #[test]
    fn syslog_true_is_dev_log_as_authpriv_beside_the_file() {
        for text in ["audit:\n  syslog: true\n", "audit: {syslog: {}}\n"] {
            let a = audit(text).unwrap().unwrap();
            assert!(a.file, "{text}");
            assert_eq!(
                a.syslog,
                Some(SyslogSettings {
                    socket: "/dev/log".into(),
                    facility: 10
                }),
                "{text}"
            );
        }
    }

    #[test]
    fn syslog_alone_with_its_socket_and_facility() {
        let a = audit(
            "audit:\n  file: false\n  syslog:\n    socket: /run/warden/log.sock\n    facility: LOCAL3\n",
        )
        .unwrap()
        .unwrap();
        assert!(!a.file);
        assert_eq!(
            a.syslog,
            Some(SyslogSettings {
                socket: "/run/warden/log.sock".into(),
                facility: 19
            })
        );
    }

    #[test]
    fn bad_syslog_values_name_the_key_and_line() {
        for (text, line, needle) in [
            (
                "audit:\n  syslog: sure\n",
                Some(2),
                "true, false, or a mapping",
            ),
            (
                "audit:\n  syslog: 3\n",
                Some(2),
                "true, false, or a mapping",
            ),
            (
                "audit:\n  syslog:\n    facilty: auth\n",
                Some(3),
                "`facilty`",
            ),
            (
                "audit:\n  syslog:\n    facility: kern\n",
                Some(3),
                "authpriv",
            ),
            (
                "audit:\n  syslog:\n    socket: dev/log\n",
                Some(3),
                "absolute",
            ),
            (
                "audit:\n  file: false\n",
                Some(2),
                "nothing would be logged",
            ),
            (
                "audit:\n  file: false\n  syslog: true\n  keep: 2\n",
                Some(4),
                "audit.keep is set",
            ),
            ("audit:\n  file: no-thanks\n", Some(2), "file"),
        ] {
            let (got, message) = error(text);
            assert_eq!(got, line, "{text:?}: {message}");
            assert!(message.contains(needle), "{text:?}: {message}");
        }
    }
}
