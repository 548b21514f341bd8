/* deny-syscall.h - see deny-syscall.c */
#pragma once

/* Makes every later call of system call `nr` by this thread, and by the
 * threads it starts from now on, fail with `err` (a seccomp filter). 0 on
 * success, else an errno: ENOSYS when this architecture is not known here,
 * or why the kernel refused the filter. */
int deny_syscall (long nr, int err);
