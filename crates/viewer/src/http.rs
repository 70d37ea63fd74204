//! The viewer's HTTP/1.1 transport: std sockets, `httparse` for the request head, one request
//! per connection (`Connection: close`). A local viewer needs no more, and owning the reading
//! lets every request be bounded: a head larger than `MAX_HEAD_BYTES` (or with more than
//! `MAX_HEADERS` fields) is answered 431 without being kept, a client that stalls is dropped
//! after `READ_TIMEOUT`, and at most `MAX_CONNECTIONS` connections are served at once (others
//! get 503), so no request can make the viewer use unbounded memory or threads.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// The largest request head (request line and header fields) the viewer reads.
pub const MAX_HEAD_BYTES: usize = 32 * 1024;
const MAX_HEADERS: usize = 64;
const READ_TIMEOUT: Duration = Duration::from_secs(10);
const WRITE_TIMEOUT: Duration = Duration::from_secs(30);
const MAX_CONNECTIONS: usize = 64;
/// How much of a refused request is read and dropped before closing.
const DRAIN_LIMIT: usize = 4 << 20;

/// What the viewer needs of a request.
pub struct Request {
    pub method: String,
    /// The request target as sent (path and query).
    pub target: String,
    pub host: Option<String>,
    /// Every header field, names in lower case.
    pub headers: Vec<(String, String)>,
}

impl Request {
    /// The first field called `name` (lower case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// A response before it is written.
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(&'static str, String)>,
    pub body: Vec<u8>,
}

/// What answers a request.
pub type Handler = dyn Fn(&Request) -> Answer + Send + Sync;

/// Outcome of reading a request head.
enum Head {
    Request(Request),
    TooLarge,
    Malformed,
    /// The client went away or stalled: nothing to answer.
    Gone,
}

/// Serves `listener` on a thread until `stop` is set and the accept is woken (`wake`).
pub fn spawn_acceptor(
    listener: TcpListener,
    stop: Arc<AtomicBool>,
    handle: Arc<Handler>,
) -> (JoinHandle<()>, Arc<AtomicUsize>) {
    let live = Arc::new(AtomicUsize::new(0));
    let counter = live.clone();
    let thread = std::thread::spawn(move || {
        for stream in listener.incoming() {
            if stop.load(Ordering::SeqCst) {
                break;
            }
            let Ok(stream) = stream else {
                // A failed accept (out of descriptors): back off so it cannot spin a core.
                std::thread::sleep(Duration::from_millis(5));
                continue;
            };
            if counter.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
                counter.fetch_sub(1, Ordering::SeqCst);
                refuse_busy(stream);
                continue;
            }
            let (handle, counter) = (handle.clone(), counter.clone());
            std::thread::spawn(move || {
                serve_connection(stream, &*handle);
                counter.fetch_sub(1, Ordering::SeqCst);
            });
        }
    });
    (thread, live)
}

fn serve_connection(mut stream: TcpStream, handle: &Handler) {
    let _ = stream.set_read_timeout(Some(READ_TIMEOUT));
    let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
    match read_head(&mut stream) {
        Head::Request(request) => {
            let answer = handle(&request);
            let headers: Vec<(&str, &str)> = answer
                .headers
                .iter()
                .map(|(k, v)| (*k, v.as_str()))
                .collect();
            // HEAD: the length of the body a GET would get, and no body.
            let body: &[u8] = if request.method == "HEAD" {
                &[]
            } else {
                &answer.body
            };
            let _ = write_response(
                &mut stream,
                answer.status,
                &headers,
                body,
                answer.body.len(),
            );
        }
        Head::TooLarge => refuse(stream, 431),
        Head::Malformed => refuse(stream, 400),
        Head::Gone => {}
    }
}

/// Answers `status` with a one-line text body and closes.
fn refuse(mut stream: TcpStream, status: u16) {
    let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
    let body = refusal_body(status);
    let _ = write_response(
        &mut stream,
        status,
        &PLAIN_TEXT,
        body.as_bytes(),
        body.len(),
    );
    // Closing with unread bytes would reset the connection and could lose the answer: read
    // and drop (never keep) a bounded amount of what the client still sends, then close.
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let _ = stream.set_read_timeout(Some(Duration::from_secs(1)));
    drain(&mut stream);
}

/// Answers 503 on the accept thread without ever waiting on the client: one non-blocking
/// write (a fresh socket's buffer takes the short answer whole), a drop of what the client has
/// already sent (closing over unread bytes would reset the connection and lose the answer), and
/// close. A client that sends later may see a reset instead; waiting for it would stall every
/// other client behind idle ones.
fn refuse_busy(mut stream: TcpStream) {
    if stream.set_nonblocking(true).is_err() {
        return;
    }
    let body = refusal_body(503);
    let mut answer = response_head(503, &PLAIN_TEXT, body.len()).into_bytes();
    answer.extend_from_slice(body.as_bytes());
    let _ = stream.write(&answer);
    let _ = stream.shutdown(std::net::Shutdown::Write);
    drain(&mut stream);
}

/// Reads and drops up to `DRAIN_LIMIT` bytes, until end of file, an error or (on a
/// non-blocking socket) nothing left to read.
fn drain(stream: &mut TcpStream) {
    let mut sink = [0u8; 8192];
    let mut drained = 0;
    while drained < DRAIN_LIMIT {
        match stream.read(&mut sink) {
            Ok(0) | Err(_) => break,
            Ok(n) => drained += n,
        }
    }
}

const PLAIN_TEXT: [(&str, &str); 1] = [("Content-Type", "text/plain; charset=utf-8")];

fn refusal_body(status: u16) -> String {
    format!("{status} {}\n", reason(status))
}

fn read_head(stream: &mut TcpStream) -> Head {
    let mut buffer = Vec::with_capacity(4096);
    let mut chunk = [0u8; 4096];
    loop {
        let mut fields = [httparse::EMPTY_HEADER; MAX_HEADERS];
        let mut request = httparse::Request::new(&mut fields);
        match request.parse(&buffer) {
            Ok(httparse::Status::Complete(_)) => {
                let host = request
                    .headers
                    .iter()
                    .find(|h| h.name.eq_ignore_ascii_case("host"))
                    .map(|h| String::from_utf8_lossy(h.value).into_owned());
                let headers = request
                    .headers
                    .iter()
                    .map(|h| {
                        let value = String::from_utf8_lossy(h.value).into_owned();
                        (h.name.to_ascii_lowercase(), value)
                    })
                    .collect();
                return Head::Request(Request {
                    method: request.method.unwrap_or("").to_string(),
                    target: request.path.unwrap_or("/").to_string(),
                    host,
                    headers,
                });
            }
            Ok(httparse::Status::Partial) => {}
            Err(httparse::Error::TooManyHeaders) => return Head::TooLarge,
            Err(_) => return Head::Malformed,
        }
        if buffer.len() >= MAX_HEAD_BYTES {
            return Head::TooLarge;
        }
        match stream.read(&mut chunk) {
            Ok(0) | Err(_) => return Head::Gone,
            Ok(n) => buffer.extend_from_slice(&chunk[..n]),
        }
    }
}

fn write_response(
    stream: &mut TcpStream,
    status: u16,
    headers: &[(&str, &str)],
    body: &[u8],
    content_length: usize,
) -> std::io::Result<()> {
    stream.write_all(response_head(status, headers, content_length).as_bytes())?;
    stream.write_all(body)?;
    stream.flush()
}

fn response_head(status: u16, headers: &[(&str, &str)], content_length: usize) -> String {
    let mut head = format!("HTTP/1.1 {status} {}\r\n", reason(status));
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str(&format!(
        "Content-Length: {content_length}\r\nConnection: close\r\n\r\n"
    ));
    head
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        409 => "Conflict",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        _ => "Internal Server Error",
    }
}
