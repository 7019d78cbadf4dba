"""The platform-neutral table service, its storage and the console front end."""

from .factory import open_store
from .replies import Notice, Offer, Picture, Private, Reply, Turn, User, Where
from .service import TableService
from .store import Store

__all__ = ["Notice", "Offer", "Picture", "Private", "Reply", "Store", "TableService", "Turn", "User", "Where",
           "open_store"]
