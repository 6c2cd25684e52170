from powertwo.cli import main

main(prog_name="powertwo")
