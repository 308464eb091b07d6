#!/bin/sh
# Patroni runs this once, on the member that initialises the cluster, with the superuser's
# connection URL: the application's database (the standbys clone it).
set -eu
psql -v ON_ERROR_STOP=1 "$1" -c 'CREATE DATABASE pfp'
