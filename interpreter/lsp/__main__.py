from interpreter.lsp.server import main

raise SystemExit(main())
