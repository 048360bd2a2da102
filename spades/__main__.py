from spades.cli import main

raise SystemExit(main())
