"""`python -m meshioplusplus ...`: the same command line as the `meshioplusplus` script."""
import sys

from ._cli import main

sys.exit(main())
