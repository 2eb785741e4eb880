//! Reading protocol lines with a bound on memory: the engine's own input,
//! and an engine's output as the match runner reads it. A peer that never
//! sends a newline cannot make either hold more than the bound.

use std::io::{BufRead, ErrorKind};

/// What one bounded read gave.
#[derive(Debug, Eq, PartialEq)]
pub(crate) enum LineRead {
    /// A whole line.
    Line,
    /// A line longer than the bound: its first bytes up to the bound.
    TooLong,
    /// The end of input, with nothing read.
    End,
}

/// Reads one line into `line` (without its newline), keeping at most
/// `limit` bytes of it. A read interrupted by a signal is retried: it is
/// not the end of input.
pub(crate) fn read_line_bounded(
    input: &mut impl BufRead,
    line: &mut Vec<u8>,
    limit: usize,
) -> std::io::Result<LineRead> {
    line.clear();
    let mut too_long = false;
    let mut any = false;
    loop {
        let buffer = match input.fill_buf() {
            Ok(bytes) => bytes,
            Err(error) if error.kind() == ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if buffer.is_empty() {
            return Ok(if !any {
                LineRead::End
            } else if too_long {
                LineRead::TooLong
            } else {
                LineRead::Line
            });
        }
        any = true;
        let (chunk, found_newline) = match buffer.iter().position(|&b| b == b'\n') {
            Some(at) => (&buffer[..at], true),
            None => (buffer, false),
        };
        let room = limit.saturating_sub(line.len());
        too_long |= chunk.len() > room;
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = chunk.len() + usize::from(found_newline);
        input.consume(used);
        if found_newline {
            return Ok(if too_long {
                LineRead::TooLong
            } else {
                LineRead::Line
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_cut_and_the_next_line_kept() {
        let mut data = vec![b'x'; 100];
        data.extend_from_slice(b"\nreadyok\r\nend");
        let mut reader = std::io::BufReader::with_capacity(7, &data[..]);
        let mut line = Vec::new();
        let read = |reader: &mut std::io::BufReader<&[u8]>, line: &mut Vec<u8>| {
            read_line_bounded(reader, line, 64).unwrap()
        };
        assert_eq!(read(&mut reader, &mut line), LineRead::TooLong);
        assert_eq!(line.len(), 64);
        assert_eq!(read(&mut reader, &mut line), LineRead::Line);
        assert_eq!(line, b"readyok\r");
        assert_eq!(read(&mut reader, &mut line), LineRead::Line);
        assert_eq!(line, b"end");
        assert_eq!(read(&mut reader, &mut line), LineRead::End);
    }

    /// A reader whose first read is interrupted by a signal.
    struct Interrupted<'a> {
        first: bool,
        rest: &'a [u8],
    }

    impl std::io::Read for Interrupted<'_> {
        fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
            if std::mem::take(&mut self.first) {
                return Err(ErrorKind::Interrupted.into());
            }
            self.rest.read(buffer)
        }
    }

    #[test]
    fn an_interrupted_read_is_retried() {
        let mut reader = std::io::BufReader::new(Interrupted {
            first: true,
            rest: b"isready\n",
        });
        let mut line = Vec::new();
        let read = read_line_bounded(&mut reader, &mut line, 64).unwrap();
        assert_eq!((read, &line[..]), (LineRead::Line, &b"isready"[..]));
    }
}
