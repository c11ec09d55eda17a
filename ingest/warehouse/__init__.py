"""The warehouse: Parquet batches, a catalog that lists them, and the writers, one at a time.

Layout under the warehouse folder::

    catalog.json                     the recorded batches; readers read only what it lists
                                     (format 2: parts, rows, file_count; no file list)
    ingest.lock                      held (flock) by the writer at work; holds its pid
    staging/<batch>/...              a batch being written, or a merge's copy being removed
                                     (removed by the next writer)
    batches/<batch>/<table>/month=YYYY-MM/part-0.parquet
    batches/<batch>/batch.json       the batch's own catalog entry, with its source files

Why it survives ``kill -9`` at any moment: a batch is written whole into ``staging/``,
renamed into ``batches/`` (one atomic rename), and only then added to the catalog, which
is replaced atomically (temp file + ``os.replace``). A crash before the catalog write
leaves an unlisted folder that no reader opens; each batch carries its own catalog entry
(``batch.json``) and its rows name their source files, so the next ingest takes such a
folder back into the catalog (or, when it cannot be read, moves it to ``orphans/``, loudly).
Only ``staging/`` leftovers (never renamed, so never a batch) are removed, and the copies
a merge leaves. A missing catalog while batches exist stops ``ingest`` and ``stats``
with the command that rebuilds it (``chuanma warehouse rebuild-catalog``). The lock is
an ``flock``: the kernel drops it when its process dies, so a dead ingest's lock never
blocks the next one.

Many writers, one at a time: a page's save, an upload, a CLI ingest, ``rebuild-catalog``
and ``compact`` wait their turn for the lock (``lock.DEFAULT_WAIT``, 600 s, ``--wait``)
and only past that wait give up with :class:`WarehouseLocked`.

Saves stay cheap however big the warehouse grows: one ingest of a small file reads only
what is new to it (the stored ids are kept between a process's ingests: ``stored``; a
listed file unchanged since it was checked is not opened again: ``recovery``), and small
batches are merged (``compact``): by month and tiered, on a threshold at the end of each
ingest, and by
``chuanma warehouse compact``. The decision: **merging removes the merged-away copies; no
deal or row is ever lost.** A merged batch is written and recorded like any other, its
entry names the batches it replaces (``merged_from``) and its ``batch.json`` holds their
``files`` (catalog format 2 keeps only ``file_count``: see ``catalog``); the
catalog swaps them for it in one atomic write; the folders of the batches it replaced are
then removed (a crash before that leaves them as unlisted copies that the next writer
removes, never takes back: their id is in a listed ``merged_from``). A merged batch never
recorded is removed the same way (every batch it was made from is still listed).

The modules, one job each: ``schema`` (the tables: what analytics reads), ``catalog``,
``lock``, ``recovery`` (unlisted batches, checks), ``batches`` (writing one), ``rows`` and
``deal_rows`` (a file's deals as rows), ``rows_decode`` (rows back into engine events),
``chunks`` (files cut for the workers, and the workers), ``known`` (the ids already stored,
in 32 bytes a deal), ``stored`` (those ids kept between ingests), ``compact`` (merging
batches) and ``run`` (the ingest). This face
re-exports what the CLI, the dashboard and the tests use; ``analytics/`` imports only
``schema`` and ``catalog``.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the face as mypy sees it: :data:`_FACE`, name by name (held together by a test)
    from ingest.warehouse.batches import write_batch as write_batch
    from ingest.warehouse.catalog import BATCHES as BATCHES
    from ingest.warehouse.catalog import CATALOG as CATALOG
    from ingest.warehouse.catalog import DEFAULT_WAREHOUSE as DEFAULT_WAREHOUSE
    from ingest.warehouse.catalog import MANIFEST as MANIFEST
    from ingest.warehouse.catalog import ORPHANS as ORPHANS
    from ingest.warehouse.catalog import STAGING as STAGING
    from ingest.warehouse.catalog import WarehouseError as WarehouseError
    from ingest.warehouse.catalog import batch_folders as batch_folders
    from ingest.warehouse.catalog import merge_leftovers as merge_leftovers
    from ingest.warehouse.catalog import read_catalog as read_catalog
    from ingest.warehouse.catalog import require_catalog as require_catalog
    from ingest.warehouse.catalog import table_files as table_files
    from ingest.warehouse.catalog import unlisted_batches as unlisted_batches
    from ingest.warehouse.compact import compact_batches as compact_batches
    from ingest.warehouse.lock import DEFAULT_WAIT as DEFAULT_WAIT
    from ingest.warehouse.lock import IngestLock as IngestLock
    from ingest.warehouse.lock import WarehouseLocked as WarehouseLocked
    from ingest.warehouse.recovery import rebuild_catalog as rebuild_catalog
    from ingest.warehouse.recovery import require_readable as require_readable
    from ingest.warehouse.recovery import verify_parts as verify_parts
    from ingest.warehouse.run import IngestInterrupted as IngestInterrupted
    from ingest.warehouse.run import IngestSummary as IngestSummary
    from ingest.warehouse.run import Progress as Progress
    from ingest.warehouse.run import ingest as ingest
    from ingest.warehouse.run import prepare as prepare
    from ingest.warehouse.schema import SCHEMAS as SCHEMAS

#: the names of this face by the module they live in, imported on first use (PEP 562): a
#: worker process that needs only ``chunks`` does not import the catalog's
#: ``pyarrow.dataset`` and, through it, pandas (CPU and memory spent again in every
#: worker an ingest starts)
_FACE: dict[str, tuple[str, ...]] = {
    "batches": ("write_batch",),
    "catalog": (
        "BATCHES",
        "CATALOG",
        "DEFAULT_WAREHOUSE",
        "MANIFEST",
        "ORPHANS",
        "STAGING",
        "WarehouseError",
        "batch_folders",
        "read_catalog",
        "merge_leftovers",
        "require_catalog",
        "table_files",
        "unlisted_batches",
    ),
    "compact": ("compact_batches",),
    "lock": ("DEFAULT_WAIT", "IngestLock", "WarehouseLocked"),
    "recovery": ("rebuild_catalog", "require_readable", "verify_parts"),
    "run": ("IngestInterrupted", "IngestSummary", "Progress", "ingest", "prepare"),
    "schema": ("SCHEMAS",),
}
_HOME: dict[str, str] = {name: f"{__name__}.{module}" for module, names in _FACE.items() for name in names}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value


#: the face, for ``import *`` and the readers of a module's names
__all__ = sorted(_HOME)
