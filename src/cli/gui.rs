//! `pasang gui`'s command line: its flags, given to the board's server
//! as [`crate::gui::GuiSettings`].

use clap::Args;

/// Arguments of `pasang gui`.
#[derive(Args, Debug)]
#[command(after_help = "\
Open the printed address in a browser. Each page gets an engine process of
its own, started when it connects and stopped when it closes. The page may
be opened with ?mode=play&side=south|north, ?mode=analyse&position=<position
string> (percent-encoded: the hole '+' is %2B; 'analyze' is taken too),
?mode=watch or ?mode=review (open a record, or review the game on the board),
and with &moves=<moves> (played first), &skill=0..20, &movetime=<ms>,
&multipv=1..5. A part of the address that is wrong is said on the page.
The rules are at /rules.")]
pub struct GuiArgs {
    /// Port to listen on (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on. The default serves this machine only; another
    /// address lets other machines start engines here.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// The engine every page drives: cmd=<command>[,option.<Name>=<value>...]
    /// (as in `pasang match`); by default this program itself.
    #[arg(long, value_name = "SPEC")]
    engine: Option<String>,
    /// Open the page in the default browser.
    #[arg(long)]
    open: bool,
}

impl GuiArgs {
    /// The server's settings from the flags.
    pub fn settings(&self) -> crate::gui::GuiSettings {
        crate::gui::GuiSettings {
            port: self.port,
            host: self.host.clone(),
            engine: self.engine.clone(),
            open: self.open,
        }
    }
}
