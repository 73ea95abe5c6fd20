// SPDX-License-Identifier: GPL-2.0-only
/* placeholder: being written; 77 = skipped */
int main(void)
{
	return 77;
}
