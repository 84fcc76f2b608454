"""An old import path, kept so `from memkeeper.core.engine import BadInput` goes on working. The store is now
`store.py`; the operations and queues are objects in their own modules, composed by `api.Engine`."""

from .errors import BadInput, NotFound
from .validate import validate_actor

__all__ = ["BadInput", "NotFound", "validate_actor"]
