"""Errors of the datasets package; each message names the dataset, the problem and the fix."""

from __future__ import annotations

from threshold_choice.errors import UserError


class DatasetError(UserError):
    """Base class of every user-fixable dataset problem."""


class UnknownDatasetError(DatasetError):
    """A dataset name that the registry does not define."""


class RegistryError(DatasetError):
    """The registry file is missing or does not follow its schema."""


class ArffFormatError(DatasetError):
    """An ARFF file (or a delimited UCI file) that cannot be parsed."""


class ChecksumMismatchError(DatasetError):
    """A mirror file whose SHA-256 differs from the mirror's SHA256SUMS entry."""


class ContentHashMismatchError(DatasetError):
    """A prepared table that differs from the paper's table (content hash, shape or classes)."""


class SourceUnavailableError(DatasetError):
    """No source could deliver the dataset (missing mirror file and no network)."""


class TransformError(DatasetError):
    """A registry transformation that does not fit the source table."""
