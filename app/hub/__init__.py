"""The hub: enrolled machines report their snapshots here, and the fleet is shown on one page.

Pure parts (report validation, the fleet model) take the clock as an argument; the hub's own
SQLite file (:mod:`app.hub.store`) and the agent's spool (:mod:`app.hub.spool`) are the only
I/O. The hub never connects out: agents push over plain HTTP, so they work from behind NAT.
"""
