"""Builds the Python module `fixroute` for `pip install .` (docs/python.md).

The module is CMake's target `fixroute_python_wheel`: sw/python/module.cpp with the whole
host side linked in, so the installed file stands alone. The CMake build goes to
build-python/, or to FIXROUTE_BUILD_DIR (an existing build tree of the project, which the
tests reuse). Needs what `scripts/install-deps.sh` installs; fetches nothing.
"""
import os
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


def project_version():
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as cmake:
        return re.search(r"project\(fixroute VERSION ([0-9.]+)", cmake.read()).group(1)


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = os.environ.get("FIXROUTE_BUILD_DIR") or os.path.join(ROOT, "build-python")
        configure = ["cmake", "-S", ROOT, "-B", build]
        if not os.path.exists(os.path.join(build, "CMakeCache.txt")):
            configure += ["-DCMAKE_BUILD_TYPE=Release", "-DPython3_EXECUTABLE=" + sys.executable]
        subprocess.check_call(configure)
        subprocess.check_call(["cmake", "--build", build, "--target", "fixroute_python_wheel",
                               "-j", str(os.cpu_count() or 2)])
        built = [f for f in os.listdir(os.path.join(build, "python-wheel")) if f.startswith("fixroute") and f.endswith(".so")]
        if len(built) != 1:
            raise RuntimeError("the CMake build made no single fixroute module in " + build + "/python-wheel")
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(os.path.join(build, "python-wheel", built[0]), target)


setup(version=project_version(), packages=[], py_modules=[], ext_modules=[Extension("fixroute", sources=[])], cmdclass={"build_ext": CMakeBuild},
      zip_safe=False)
