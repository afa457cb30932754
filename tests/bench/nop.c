// SPDX-License-Identifier: GPL-2.0
/* The program fork_exec runs: does nothing, successfully. */
int main(void)
{
	return 0;
}
