/* deny-syscall.c - one system call made to fail, for fault tests: a seccomp
 * filter (seccomp(2), "SECCOMP_SET_MODE_FILTER"), the kernel's own way of
 * making a call fail with a chosen errno without touching the program or
 * the library that makes it.
 *
 * The filter is a classic BPF program run on each system call's
 * struct seccomp_data: calls of another architecture (an x86-64 process can
 * make i386 ones) are let through, as is every call but `nr`, which returns
 * SECCOMP_RET_ERRNO with `err`. A filter is inherited by the threads the
 * caller starts afterwards and by its children, and cannot be removed;
 * PR_SET_NO_NEW_PRIVS must be set first by a process without CAP_SYS_ADMIN
 * (it only keeps exec from gaining privileges: no test program needs that).
 */
#define _GNU_SOURCE
#include "deny-syscall.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__) && !defined(__ILP32__)
#define NATIVE_ARCH AUDIT_ARCH_X86_64
#elif defined(__i386__)
#define NATIVE_ARCH AUDIT_ARCH_I386
#elif defined(__aarch64__)
#define NATIVE_ARCH AUDIT_ARCH_AARCH64
#endif

int
deny_syscall (long nr, int err)
{
#ifdef NATIVE_ARCH
  struct sock_filter code[] = {
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, arch)),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, NATIVE_ARCH, 1, 0),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr)),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, (unsigned int) nr, 0, 1),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ((unsigned int) err & SECCOMP_RET_DATA)),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog prog = { .len = sizeof code / sizeof code[0], .filter = code };

  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
      || syscall (SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0)
    return errno;
  return 0;
#else
  (void) nr;
  (void) err;
  return ENOSYS;
#endif
}
