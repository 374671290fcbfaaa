"""`python -m sdkprobe`: the same as the `sdkprobe` command."""

import sys

from sdkprobe.commands import main

sys.exit(main())
