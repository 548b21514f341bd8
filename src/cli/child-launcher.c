/* child-launcher.c: runs the app for "jankscope run" and waits for it
 *
 * fork + execvpe rather than g_spawn: the CLI must control which signals
 * the app inherits and when its own handling of them starts.
 *
 * While the app runs, the CLI blocks SIGINT, SIGQUIT, SIGTERM, SIGHUP and
 * SIGCHLD and takes them with sigwaitinfo (no handlers, no races):
 *  - SIGINT/SIGQUIT are dropped: the terminal sends them to the whole
 *    foreground process group, so the app gets its own copy;
 *  - SIGTERM/SIGHUP are forwarded to the app (a `kill` of the CLI alone);
 *  - SIGCHLD ends the wait once the app is gone.
 * They stay blocked until the CLI exits, so that a Ctrl-C that killed the
 * app does not also kill the CLI before it prints the summary.
 *
 * The child restores the original signal mask before exec; an exec failure
 * is reported through a close-on-exec pipe (nothing read: exec succeeded).
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE /* execvpe */

#include "jankscope-config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib-unix.h>
#include <glib/gi18n.h>

#include "child-launcher.h"

static void
child_exec (char **argv, char **envp, const sigset_t *original_mask,
            const struct sigaction *original_sigchld, int report_fd)
{
  int saved_errno;

  /* Only async-signal-safe calls between fork and exec. */
  sigaction (SIGCHLD, original_sigchld, NULL);
  sigprocmask (SIG_SETMASK, original_mask, NULL);

  execvpe (argv[0], argv, envp);

  saved_errno = errno;
  while (write (report_fd, &saved_errno, sizeof saved_errno) < 0 && errno == EINTR)
    ;
  _exit (127);
}

/* Returns the exec errno of the child, or 0 if exec succeeded. */
static int
read_exec_errno (int fd)
{
  int child_errno = 0;
  ssize_t n;

  do
    n = read (fd, &child_errno, sizeof child_errno);
  while (n < 0 && errno == EINTR);

  return n == sizeof child_errno ? child_errno : 0;
}

static int
wait_for_child (pid_t pid, const sigset_t *waited)
{
  for (;;)
    {
      siginfo_t info;
      int status;
      pid_t ret;
      int sig = sigwaitinfo (waited, &info);

      if (sig < 0)
        continue; /* EINTR */

      switch (sig)
        {
        case SIGTERM:
        case SIGHUP:
          kill (pid, sig);
          break;

        case SIGCHLD:
          do
            ret = waitpid (pid, &status, WNOHANG);
          while (ret < 0 && errno == EINTR);
          if (ret == pid)
            return status;
          if (ret < 0)
            {
              /* Cannot happen: SIGCHLD is SIG_DFL, the child is ours. */
              g_printerr ("jankscope: waitpid: %s\n", g_strerror (errno));
              return W_EXITCODE (1, 0);
            }
          break; /* stopped or continued */

        default: /* SIGINT, SIGQUIT: the app got them too */
          break;
        }
    }
}

gboolean
cli_child_run (char **argv, char **envp, pid_t *out_pid, int *out_wait_status, GError **error)
{
  const int waited_signals[] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGCHLD };
  struct sigaction default_sigchld = { .sa_handler = SIG_DFL };
  struct sigaction original_sigchld;
  sigset_t waited, original_mask;
  int pipe_fds[2];
  int exec_errno;
  int status;
  pid_t pid;

  g_return_val_if_fail (argv != NULL && argv[0] != NULL, FALSE);

  if (!g_unix_open_pipe (pipe_fds, FD_CLOEXEC, error))
    return FALSE;

  sigemptyset (&waited);
  for (gsize i = 0; i < G_N_ELEMENTS (waited_signals); i++)
    sigaddset (&waited, waited_signals[i]);

  /* A SIGCHLD set to SIG_IGN by our parent would reap the app for us. */
  sigemptyset (&default_sigchld.sa_mask);
  sigaction (SIGCHLD, &default_sigchld, &original_sigchld);
  sigprocmask (SIG_BLOCK, &waited, &original_mask);

  pid = fork ();
  if (pid < 0)
    {
      int saved_errno = errno;

      close (pipe_fds[0]);
      close (pipe_fds[1]);
      g_set_error (error, G_SPAWN_ERROR, G_SPAWN_ERROR_FORK, _ ("cannot start a process: %s"),
                   g_strerror (saved_errno));
      return FALSE;
    }

  if (pid == 0)
    child_exec (argv, envp, &original_mask, &original_sigchld, pipe_fds[1]);

  close (pipe_fds[1]);
  exec_errno = read_exec_errno (pipe_fds[0]);
  close (pipe_fds[0]);

  status = wait_for_child (pid, &waited);

  if (exec_errno != 0)
    {
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (exec_errno),
                   _ ("cannot run “%s”: %s"), argv[0], g_strerror (exec_errno));
      return FALSE;
    }

  *out_pid = pid;
  *out_wait_status = status;
  return TRUE;
}

/* Like a shell: the exit status, or 128 + N for a death by signal N. */
int
cli_exit_code_for_status (int wait_status)
{
  if (WIFEXITED (wait_status))
    return WEXITSTATUS (wait_status);
  if (WIFSIGNALED (wait_status))
    return 128 + WTERMSIG (wait_status);

  return 1;
}

char *
cli_describe_wait_status (int wait_status)
{
  if (WIFSIGNALED (wait_status))
    return g_strdup_printf (_ ("killed by signal %d (%s)%s"), WTERMSIG (wait_status),
                            g_strsignal (WTERMSIG (wait_status)),
                            WCOREDUMP (wait_status) ? _ (", core dumped") : "");

  return g_strdup_printf (_ ("exited with status %d"), cli_exit_code_for_status (wait_status));
}
