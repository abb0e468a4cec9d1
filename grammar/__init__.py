"""The Lark grammar (stichwort.lark) and the JSON Schema (stichwort.schema.json) of the rule language."""
