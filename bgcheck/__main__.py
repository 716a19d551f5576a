from bgcheck.cli import main

main()
