#!/bin/sh
# The node image is made from the machine's Node.js.
[ -x /usr/bin/node ]
