"""The stichwort language server (`stichwort lsp`): diagnostics, hover, completion and definitions for .stw files."""
