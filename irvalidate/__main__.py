try:
    from irvalidate.cli.main import main
except KeyboardInterrupt:  # Ctrl-C while the program loads: no traceback, as later
    raise SystemExit(130) from None

if __name__ == "__main__":
    raise SystemExit(main())
