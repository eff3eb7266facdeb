"""IRV000 internal-error: irvalidate itself failed on the file.

The parser or a rule raised an exception, so that check did not run and the file may or may
not be valid.  The message names the failing rule and where it failed; please report it with
the file that triggers it.  The other rules and files still run, and the exit status is 1.

Passing: any file irvalidate reads to the end.

Failing: a file that makes a rule raise (a bug in irvalidate).
"""
CODE = "IRV000"
SLUG = "internal-error"
LEVEL = "error"
SUMMARY = "irvalidate itself failed on a file (a bug; please report it)."
#: selected whatever ``select`` says (an ``ignore`` naming it still wins)
ALWAYS_SELECTED = True
