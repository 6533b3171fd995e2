"""Files knight writes and reads back safely: written whole or not at all
(``atomic_write``), append-only journals sealed line by line (``journal``),
temporaries and spill folders named by their owner (``owned_files``), and
bounded, strict JSON (``strict_json``)."""
