// rust-names.rs - a Rust program on GLib's main loop, for demangling checks
//
// No crates: GLib through its C API, declared here. 50 ms into the main
// loop, a timeout callback runs `slow::crunch` (a function in a module,
// never inlined) for 300 ms of CPU, prints the stall window on stdout as
// "stall=START_NS,END_NS" (CLOCK_MONOTONIC, as the report's times) and
// quits. Built by tests/apps/meson.build twice with legacy mangling (crate
// hashes -C metadata=a and b: every symbol's hash differs) and once with v0.
use std::io::Write;
use std::os::raw::{c_int, c_long, c_uint, c_void};

#[repr(C)]
struct GMainLoop {
    _private: [u8; 0],
}

#[repr(C)]
struct Timespec {
    tv_sec: c_long,
    tv_nsec: c_long,
}

type GSourceFunc = extern "C" fn(data: *mut c_void) -> c_int;

#[link(name = "glib-2.0")]
extern "C" {
    fn g_main_loop_new(context: *mut c_void, is_running: c_int) -> *mut GMainLoop;
    fn g_main_loop_run(main_loop: *mut GMainLoop);
    fn g_main_loop_quit(main_loop: *mut GMainLoop);
    fn g_main_loop_unref(main_loop: *mut GMainLoop);
    fn g_timeout_add(interval: c_uint, function: GSourceFunc, data: *mut c_void) -> c_uint;
}

extern "C" {
    fn clock_gettime(clock: c_int, ts: *mut Timespec) -> c_int;
}

const CLOCK_MONOTONIC: c_int = 1;
const STALL_MS: i64 = 300;

#[inline(never)]
fn now_ns() -> i64 {
    let mut ts = Timespec { tv_sec: 0, tv_nsec: 0 };
    unsafe {
        clock_gettime(CLOCK_MONOTONIC, &mut ts);
    }
    ts.tv_sec as i64 * 1_000_000_000 + ts.tv_nsec as i64
}

mod slow {
    // CPU work until `until_ns`: the stall's culprit.
    #[inline(never)]
    pub fn crunch(until_ns: i64) -> u64 {
        let mut x: u64 = 1;
        while super::now_ns() < until_ns {
            let mut i: u64 = 0;
            while i < 10_000 {
                // A volatile read: the loop is not folded away.
                let y = unsafe { std::ptr::read_volatile(&x) };
                x = y.wrapping_mul(6364136223846793005).wrapping_add(i);
                i += 1;
            }
        }
        x
    }
}

extern "C" fn on_timeout(data: *mut c_void) -> c_int {
    let start = now_ns();
    let x = slow::crunch(start + STALL_MS * 1_000_000);
    let end = now_ns();
    let mut out = std::io::stdout();
    writeln!(out, "stall={},{}", start, end).unwrap();
    writeln!(out, "sink={}", x & 1).unwrap();
    out.flush().unwrap();
    unsafe {
        g_main_loop_quit(data as *mut GMainLoop);
    }
    0
}

fn main() {
    unsafe {
        let main_loop = g_main_loop_new(std::ptr::null_mut(), 0);
        g_timeout_add(50, on_timeout, main_loop as *mut c_void);
        g_main_loop_run(main_loop);
        g_main_loop_unref(main_loop);
    }
    println!("done=1");
}
