//! Feeds arbitrary bytes to the language server's framing on stdin (src/cli/lsp/transport.rs,
//! compiled here from the binary's own file): every read is a frame, a refusal or the input's
//! end, and the reader reaches the end without a panic. CI runs it for a bounded time
//! (`.ci/fuzz`); tests/fuzz_formats.rs sends such frames to a real `outflank lsp` too.
#![no_main]

// The binary's folder of the language server, from which `transport` is read.
#[path = "../../src/cli/lsp"]
mod lsp {
    /// The bound of a document; any bound serves here (the binary's is in src/cli/lsp/mod.rs).
    const MAX_DOCUMENT_BYTES: usize = 1 << 20;

    // The writer and the stdio threads are the binary's, unused here.
    #[allow(dead_code)]
    mod transport;

    use transport::{Frame, FrameReader};

    /// Reads frames from `data` to its end. A read that finds a frame or a refusal has moved
    /// past at least one byte, so there are never more reads than bytes.
    pub(crate) fn read_all(data: &[u8]) {
        let mut reader = FrameReader::new(data);
        for _ in 0..=data.len() {
            match reader.next_frame() {
                Ok(Frame::End) | Err(_) => return,
                Ok(Frame::Message(_) | Frame::Refused { .. }) => {}
            }
        }
        panic!("more frames than the input has bytes: the reader does not move on");
    }
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| lsp::read_all(data));
