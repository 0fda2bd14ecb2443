"""Hatch build hook: ``ZZV_MYPYC=1`` compiles the engine's rules modules with mypyc.

Without the variable, and always for editable installs (``pip install -e .``), the wheel
is pure Python as usual. With it (``ZZV_MYPYC=1 pip wheel .``), the modules listed as
``compile`` under ``[tool.hatch.build.targets.wheel.hooks.custom]`` in pyproject.toml are
compiled to C extensions, which Python imports in place of the .py files (still in the
wheel, as the readable source and the fallback). The build then needs a C compiler, and
mypy and setuptools, which this hook asks the build front end for.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

FLAG = "ZZV_MYPYC"


def wanted() -> bool:
    """Whether this build is asked to compile."""
    return os.environ.get(FLAG, "").strip() in {"1", "true", "yes"}


class MypycBuildHook(BuildHookInterface):  # type: ignore[misc]
    """Compiles the listed modules when :data:`FLAG` is set; otherwise does nothing."""

    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        """Build requirements of a compiled build (none for a pure one)."""
        return ["mypy>=1.10,<3", "setuptools>=69"] if wanted() else []

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Compile a copy of the sources and add the extensions to the wheel."""
        if not wanted() or version == "editable":
            return
        modules = [str(m) for m in self.config.get("compile", [])]
        work = Path(tempfile.mkdtemp(prefix="zzv-mypyc-"))
        # A copy, so the checkout gets no build products and no config file steers mypy.
        packages = sorted({m.split("/")[0] for m in modules})
        for package in packages:
            shutil.copytree(Path(self.root) / package, work / package)
        subprocess.run([sys.executable, "-m", "mypyc", *modules], cwd=work, check=True)
        for extension in sorted(work.glob("**/*.so")):
            if "build" not in extension.relative_to(work).parts:
                build_data["force_include"][str(extension)] = str(extension.relative_to(work))
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
