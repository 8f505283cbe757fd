"""The test suite (a package, so that bench/ and scripts/ import its kits as ``tests.KIT``)."""
