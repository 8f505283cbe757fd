"""raspis: the toolchain for game records of Raspisnoy poker."""

__version__ = "0.1.0"
