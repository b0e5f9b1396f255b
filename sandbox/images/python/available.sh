#!/bin/sh
# The python image is made from Debian's interpreter.
[ -x /usr/bin/python3 ]
