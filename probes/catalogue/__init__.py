"""The behaviours, one module per area. Importing this package registers them all.

A behaviour module uses only `probes.behaviour` (the declaration and verdicts), the
`Harness` it is given, and the scenario builder of the fake CLI.
"""

import importlib
import pkgutil

for _module in pkgutil.iter_modules(__path__):
    importlib.import_module(f"{__name__}.{_module.name}")
