"""The wheel's version and platform tag, both given by scripts/build-wheel.mjs.

The package holds one native executable and no Python extension, so the tag is py3-none-<platform>:
any Python 3, the one platform the executable runs on.
"""
import os

from setuptools import Distribution, setup
from wheel.bdist_wheel import bdist_wheel


def given(name):
    value = os.environ.get(name)
    if not value:
        raise SystemExit(f"{name} is not set: build the wheel with `npm run build:wheel`")
    return value


class PlatformDistribution(Distribution):
    """Platform-specific, so the files sit at the wheel's root (platlib), not under .data/purelib."""

    def has_ext_modules(self):
        return True


class PlatformWheel(bdist_wheel):
    def get_tag(self):
        return "py3", "none", given("VIGIL_WHEEL_PLATFORM")


setup(
    version=given("VIGIL_VERSION"),
    distclass=PlatformDistribution,
    cmdclass={"bdist_wheel": PlatformWheel},
)
