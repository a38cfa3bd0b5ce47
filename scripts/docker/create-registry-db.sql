create database pi_registry;
