"""The frontier dynamic program: counts tours without enumerating them,
inserting the board's squares one at a time and keeping only the states of
the frontier (``docs/counting-dp.md``)."""
