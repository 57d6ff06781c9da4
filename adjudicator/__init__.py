"""pbem adjudicator: pure game engines plus the record, store, mail and service layers."""
