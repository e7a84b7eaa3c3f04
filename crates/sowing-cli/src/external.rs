//! An external engine that speaks UGI (docs/protocol.md), driven by `sow match`.
//!
//! Every wait has a deadline: an engine that crashes, hangs or answers nonsense gives a
//! [`Fault`], which the match scores as a lost game for it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use sowing::{Game, Move, Position, Rules};
use sowing_engine::Limits;

/// Why an external engine lost a game without finishing it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault(pub String);

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A running engine process.
pub struct External {
    command: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

/// Time allowed for the handshake and for the answer to `isready`.
const HANDSHAKE: Duration = Duration::from_secs(10);

impl External {
    /// Starts `command` (run by the shell) and shakes hands for `rules`.
    pub fn start(command: &str, rules: Rules) -> Result<External, Fault> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| Fault(format!("could not start {command:?}: {e}")))?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = External {
            command: command.to_owned(),
            child,
            stdin,
            lines,
        };
        engine.send("ugi")?;
        let deadline = Instant::now() + HANDSHAKE;
        loop {
            let line = engine.receive(deadline, "ugiok")?;
            if line.trim() == "ugiok" {
                break;
            }
        }
        // The game first: the engine refuses an option its current game does not have.
        let mut options = vec![
            ("game", rules.variant().name().to_owned()),
            ("pits", rules.pits_per_row().to_string()),
        ];
        options.extend(rules.options().map(|(o, value)| (o.name, value.to_owned())));
        for (name, value) in options {
            engine.send(&format!("setoption name {name} value {value}"))?;
        }
        engine.send("uginewgame")?;
        engine.ready()?;
        Ok(engine)
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|_| Fault(format!("{} crashed (its input is closed)", self.command)))
    }

    fn receive(&mut self, deadline: Instant, waiting_for: &str) -> Result<String, Fault> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(Fault(format!(
                "{} hung: no {waiting_for} in time",
                self.command
            ))),
            Err(RecvTimeoutError::Disconnected) => Err(Fault(format!(
                "{} crashed before {waiting_for}",
                self.command
            ))),
        }
    }

    fn ready(&mut self) -> Result<(), Fault> {
        self.send("isready")?;
        let deadline = Instant::now() + HANDSHAKE;
        while self.receive(deadline, "readyok")?.trim() != "readyok" {}
        Ok(())
    }

    /// The engine's move in `game`, within `limits`, waiting at most `timeout`.
    pub fn choose(
        &mut self,
        game: &Game,
        limits: &Limits,
        timeout: Duration,
    ) -> Result<Move, Fault> {
        let n = game.rules().pits_per_row();
        let start = if *game.start() == Position::start(game.rules()) {
            "startpos".to_owned()
        } else {
            format!("fen {}", game.start())
        };
        let mut line = format!("position {start}");
        if !game.moves().is_empty() {
            line.push_str(" moves");
            for mv in game.moves() {
                line.push(' ');
                line.push_str(&mv.name(n).to_string());
            }
        }
        self.send(&line)?;
        let mut go = "go".to_owned();
        if let Some(time) = limits.time {
            go.push_str(&format!(" movetime {}", time.as_millis()));
        }
        if let Some(nodes) = limits.nodes {
            go.push_str(&format!(" nodes {nodes}"));
        }
        if let Some(depth) = limits.depth {
            go.push_str(&format!(" depth {depth}"));
        }
        self.send(&go)?;
        let deadline = Instant::now() + timeout;
        let token = loop {
            let line = self.receive(deadline, "bestmove")?;
            if let Some(token) = line.trim().strip_prefix("bestmove ") {
                break token.trim().to_owned();
            }
        };
        let mv = game
            .parse_move(&token)
            .map_err(|_| Fault(format!("{} sent an unknown move {token:?}", self.command)))?;
        if !game.position().is_legal(mv) {
            return Err(Fault(format!(
                "{} sent an illegal move {token} in {}",
                self.command,
                game.position()
            )));
        }
        Ok(mv)
    }
}

impl Drop for External {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_millis(200);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sowing::Variant;

    /// A shell engine that shakes hands, then answers `go` with `answer` (or never).
    fn fake(answer: &str) -> String {
        format!(
            "while read line; do case \"$line\" in ugi) echo ugiok;; isready) echo readyok;; \
             go*) {answer};; quit) exit 0;; esac; done"
        )
    }

    fn limits() -> Limits {
        Limits {
            time: Some(Duration::from_millis(50)),
            ..Limits::default()
        }
    }

    #[test]
    fn an_engine_that_exits_at_once_is_a_crash() {
        let fault = External::start("true", Rules::new(Variant::HoyitoII))
            .err()
            .expect("a fault");
        assert!(fault.0.contains("crashed"), "{fault}");
    }

    #[test]
    fn an_engine_that_never_answers_go_has_hung() {
        let rules = Rules::new(Variant::HoyitoII);
        let mut engine = External::start(&fake("true"), rules).expect("handshake");
        let fault = engine
            .choose(&Game::new(rules), &limits(), Duration::from_millis(300))
            .expect_err("no bestmove");
        assert!(fault.0.contains("hung"), "{fault}");
    }

    #[test]
    fn an_illegal_or_unknown_move_is_a_fault() {
        let rules = Rules::new(Variant::Ayoayo);
        for (answer, word) in [
            ("echo bestmove pass", "illegal"),
            ("echo bestmove Q", "unknown"),
        ] {
            let mut engine = External::start(&fake(answer), rules).expect("handshake");
            let fault = engine
                .choose(&Game::new(rules), &limits(), Duration::from_secs(5))
                .expect_err("a bad move");
            assert!(fault.0.contains(word), "{fault}");
        }
    }

    #[test]
    fn a_legal_answer_is_played() {
        let rules = Rules::new(Variant::HoyitoIII);
        let mut engine =
            External::start(&fake("echo info depth 1; echo bestmove C"), rules).expect("handshake");
        let mv = engine
            .choose(&Game::new(rules), &limits(), Duration::from_secs(5))
            .unwrap();
        assert_eq!(mv, Move::parse("C", 6).unwrap());
    }
}
