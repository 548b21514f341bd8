/* fake-preload.c: an empty library that stands in for the preload in the
 * CLI tests, so that they check the CLI alone (LD_PRELOAD handling, exit
 * codes, signals) whatever the state of the core.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
int jankscope_cli_test_fake_preload (void);

int
jankscope_cli_test_fake_preload (void)
{
  return 0;
}
