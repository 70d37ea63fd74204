//! Serves a replay folder (or one replay file) and prints the URL on the first line of stdout,
//! then serves until killed. The end-to-end browser test starts the viewer this way:
//! `cargo run -p realm-viewer --example serve_dir -- DIR [PORT]`.

use std::io::Write;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(target) = args.next() else {
        eprintln!("usage: serve_dir DIR|REPLAY.json [PORT]");
        std::process::exit(2);
    };
    let port = args.next().map(|p| p.parse().expect("PORT is a number"));
    let mut config = if std::path::Path::new(&target).is_file() {
        realm_viewer::ServerConfig::single(&target)
    } else {
        realm_viewer::ServerConfig::folder(&target)
    };
    config.port = port;
    let server = match realm_viewer::start(config) {
        Ok(server) => server,
        Err(e) => {
            eprintln!("serve_dir: {e}");
            std::process::exit(1);
        }
    };
    println!("{}", server.url());
    let _ = std::io::stdout().flush();
    server.join();
}
